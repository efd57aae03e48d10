package dev.travertine.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Travertine's version (the Maven project's), as the driver, version() and the CLI report it. */
public final class Version {
  private Version() {}

  private static final String VERSION = load();

  /** "0.1.0-SNAPSHOT", or "unknown" when the build left no version file. */
  public static String get() {
    return VERSION;
  }

  /** The leading number of each dotted part: major, then minor (0 where missing). */
  static int part(int index) {
    String[] parts = VERSION.split("[.-]");
    try {
      return index < parts.length ? Integer.parseInt(parts[index]) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("travertine-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
