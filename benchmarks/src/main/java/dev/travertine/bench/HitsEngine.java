package dev.travertine.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One engine under test: its database of the {@code hits} table at a location under the data
 * directory, loaded from the generated CSV file the first time, reused by later runs of the same
 * row count (a marker file beside it records that the load finished, and how long it took).
 */
abstract class HitsEngine implements AutoCloseable {
  private final String name;
  private final Path location;
  private Connection connection;
  private String loadNote;

  HitsEngine(String name, Path location) {
    this.name = name;
    this.location = location;
  }

  String name() {
    return name;
  }

  Connection connection() {
    return connection;
  }

  /** How the table came to be: "loaded in 12.3 s (…)" or "reused (loaded in 12.3 s (…))". */
  String loadNote() {
    return loadNote;
  }

  Path location() {
    return location;
  }

  /** Opens the database, loading {@code csv} into it unless an earlier run did; then sets the threads. */
  final void open(Path csv, int threads) throws Exception {
    Path marker = location.resolveSibling(location.getFileName() + ".loaded");
    if (Files.exists(marker)) {
      connection = connect();
      loadNote = "reused (loaded in " + Files.readString(marker).strip() + ")";
    } else {
      deleteAll(location);
      Files.deleteIfExists(location.resolveSibling(location.getFileName() + ".wal"));
      connection = connect();
      long t0 = System.nanoTime();
      String detail = load(csv);
      String took = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - t0) / 1e9)
          + (detail.isEmpty() ? "" : " (" + detail + ")");
      Files.writeString(marker, took + "\n");
      loadNote = "loaded in " + took;
    }
    setThreads(threads);
  }

  abstract Connection connect() throws SQLException;

  /** Creates and fills the hits table from the CSV file; returns what the time went on, or "". */
  abstract String load(Path csv) throws Exception;

  abstract void setThreads(int threads) throws SQLException;

  @Override public void close() throws SQLException {
    if (connection != null) {
      connection.close();
    }
  }

  /** Deletes a file or a directory tree, if it exists. */
  static void deleteAll(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> all = Files.walk(p)) {
      for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
