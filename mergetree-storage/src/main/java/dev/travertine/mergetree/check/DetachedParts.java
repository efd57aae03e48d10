package dev.travertine.mergetree.check;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.io.OutputFile;
import dev.travertine.io.RandomAccessInput;
import dev.travertine.mergetree.log.MetadataLog;
import dev.travertine.mergetree.part.PartInfo;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code detached/} area of one table's storage: parts taken out of the active set because
 * they were found broken, kept for the operator to inspect (ClickHouse's detached directory and
 * {@code system.detached_parts}). Each holds a copy of the part's file (when one could be read)
 * as {@code detached/<reason>_<part>.orc} and a record of why, {@code detached/<reason>_<part>.json}.
 * Nothing reads them again; dropping the table deletes them.
 */
public final class DetachedParts {
  private static final Logger LOG = LoggerFactory.getLogger(DetachedParts.class);
  public static final String DIR = "detached";
  private static final int CHUNK = 1 << 20;

  /** Why a part is detached, as ClickHouse prefixes the name: found by CHECK TABLE, or at start. */
  public static final String BROKEN = "broken";
  public static final String BROKEN_ON_START = "broken-on-start";

  private final FileIO io;

  public DetachedParts(FileIO io) {
    this.io = io;
  }

  /**
   * One detached part.
   *
   * @param name the name in {@code detached/}: {@code <reason>_<part name>[_tryN]}
   * @param part the metadata record the part had while active
   * @param reason {@link #BROKEN} or {@link #BROKEN_ON_START}
   * @param message what was found wrong
   * @param hasFile whether a copy of the file was kept
   */
  public record Detached(String name, PartInfo part, String reason, String message, long time, boolean hasFile) {
    @JsonCreator
    public Detached(@JsonProperty("name") String name, @JsonProperty("part") PartInfo part,
        @JsonProperty("reason") String reason, @JsonProperty("message") String message,
        @JsonProperty("time") long time, @JsonProperty("hasFile") boolean hasFile) {
      this.name = name;
      this.part = part;
      this.reason = reason;
      this.message = message;
      this.time = time;
      this.hasFile = hasFile;
    }
  }

  /**
   * Copies the part's file, when it can be read, and records why; the caller then removes the
   * part from the active set (which deletes the original).
   */
  public Detached moveAside(PartInfo part, String reason, String message, long now) throws IOException {
    String name = freeName(reason + "_" + part.name());
    boolean copied = copy(part.path(), DIR + "/" + name + ".orc");
    Detached d = new Detached(name, part, reason, message, now, copied);
    io.writeAtomic(DIR + "/" + name + ".json", MetadataLog.JSON.writeValueAsBytes(d));
    LOG.warn("Part {} moved aside as {}/{}: {}", part.name(), DIR, name, message);
    return d;
  }

  /** The detached parts, by name. */
  public List<Detached> list() throws IOException {
    List<Detached> out = new ArrayList<>();
    for (FileInfo f : io.list(DIR)) {
      if (f.path().endsWith(".json")) {
        try {
          out.add(MetadataLog.JSON.readValue(io.readAll(f.path()), Detached.class));
        } catch (IOException e) {
          LOG.warn("Cannot read the record of detached part {}: {}", f.path(), e.toString());
        }
      }
    }
    return out;
  }

  private String freeName(String base) throws IOException {
    String name = base;
    for (int i = 1; io.exists(DIR + "/" + name + ".json"); i++) {
      name = base + "_try" + i;
    }
    return name;
  }

  /** Copies what can be read of {@code from}; false when there is no such file. */
  private boolean copy(String from, String to) throws IOException {
    RandomAccessInput in;
    try {
      in = io.newInputFile(from).open();
    } catch (FileNotFoundException | NoSuchFileException e) {
      return false;
    }
    try (in) {
      long len = in.length();
      OutputFile.AbortableOutputStream out = io.newOutputFile(to).create();
      try {
        byte[] buf = new byte[CHUNK];
        for (long pos = 0; pos < len; pos += CHUNK) {
          int n = (int) Math.min(CHUNK, len - pos);
          in.readFully(pos, buf, 0, n);
          out.write(buf, 0, n);
        }
        out.close();
      } catch (IOException | RuntimeException e) {
        out.abort();
        throw e;
      }
    } catch (FileNotFoundException | NoSuchFileException e) {
      return false;
    }
    return true;
  }
}
