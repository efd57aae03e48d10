package dev.travertine.jdbc;

import dev.travertine.mergetree.Database;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Databases open in this JVM, shared by every connection to the same directory and closed with
 * the last one (the directory's lock file keeps other processes out).
 */
final class DatabaseRegistry {
  private DatabaseRegistry() {}

  private record Entry(Database db, int refs) {}

  private static final Map<Path, Entry> OPEN = new HashMap<>();

  /**
   * The database of a directory, opened by the first connection with its node properties
   * (storage: {@code s3.*}, {@code hadoop.*}, {@code storage.*}; cluster: {@code exchange.*},
   * {@code cluster.*}, see {@link dev.travertine.calcite.cluster.NodeExchange}); later connections share
   * it as it is.
   */
  static synchronized Database acquire(Path dir, Map<String, String> storage) throws IOException {
    Path key = dir.toAbsolutePath().normalize();
    Entry e = OPEN.get(key);
    if (e == null || e.db().isClosed()) {
      Map<String, String> storageOnly = new java.util.HashMap<>(storage);
      storageOnly.keySet().removeIf(dev.travertine.calcite.cluster.NodeExchange::isKey);
      Database db = Database.open(key, dev.travertine.calcite.dml.SqlMutationCompiler.INSTANCE, storageOnly);
      try {
        dev.travertine.calcite.cluster.NodeExchange.open(db, storage);
      } catch (IOException | RuntimeException ex) {
        db.close();
        throw ex;
      }
      e = new Entry(db, 0);
    }
    OPEN.put(key, new Entry(e.db(), e.refs() + 1));
    return e.db();
  }

  static synchronized void release(Database db) throws IOException {
    Path key = db.directory();
    Entry e = OPEN.get(key);
    if (e == null || e.db() != db) {
      return;
    }
    if (e.refs() <= 1) {
      OPEN.remove(key);
      dev.travertine.calcite.cluster.NodeExchange.close(db);
      db.close();
    } else {
      OPEN.put(key, new Entry(db, e.refs() - 1));
    }
  }
}
