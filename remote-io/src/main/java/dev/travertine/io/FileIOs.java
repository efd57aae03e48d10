package dev.travertine.io;

import dev.travertine.io.hadoop.HadoopFileIO;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.io.s3.S3Config;
import dev.travertine.io.s3.S3FileIO;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Opens the storage behind a location: {@code s3://bucket/prefix} (see {@link S3Config} for the
 * {@code s3.*} properties), {@code hdfs://namenode:port/path} (properties {@code hadoop.*} go
 * to the Hadoop configuration without the prefix), or a local directory ({@code file:} URI or
 * path).
 */
public final class FileIOs {
  private FileIOs() {}

  public static FileIO open(String location, Map<String, String> properties) {
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("Invalid storage location: empty");
    }
    if (location.startsWith("s3://")) {
      return S3FileIO.open(URI.create(location), S3Config.fromProperties(properties));
    }
    if (location.startsWith("hdfs://")) {
      Configuration conf = new Configuration();
      properties.forEach((k, v) -> {
        if (k.startsWith("hadoop.")) {
          conf.set(k.substring("hadoop.".length()), v);
        }
      });
      return new HadoopFileIO(URI.create(location), conf);
    }
    Path local = localPath(location);
    if (local == null) {
      throw new IllegalArgumentException("Unsupported storage location " + location
          + " (expected s3://bucket/prefix, hdfs://host:port/path or a local directory)");
    }
    return new LocalFileIO(local);
  }

  /** The directory of a location on local disk (a {@code file:} URI or a path), or null for other storage. */
  public static Path localPath(String location) {
    if (location.startsWith("file:")) {
      return Path.of(URI.create(location));
    }
    return location.contains("://") ? null : Path.of(location);
  }

  /** A location joined with a relative path ('/'-separated). */
  public static String child(String location, String relative) {
    return location.endsWith("/") ? location + relative : location + "/" + relative;
  }
}
