package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryTest {
  @TempDir Path dir;

  private static TableDefinition def(String name) {
    return new TableDefinition(name, new TableSchema(List.of(new Column("k", DataType.of(TypeKind.BIGINT), false))),
        List.of("k"), null, List.of(), Map.of("min_insert_rows_for_direct_part", "1"), List.of());
  }

  private static void insert(MergeTreeTable t, long... keys) throws Exception {
    try (Inserter ins = t.newInserter(1 << 20)) {
      for (long k : keys) {
        ins.add(new Object[] {k});
      }
      ins.commit();
    }
  }

  @Test
  void logCheckpointsAndReplays() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def("t"), false);
      MergeTreeTable t = db.table("t");
      for (int i = 0; i < 70; i++) {
        insert(t, i);
      }
      assertEquals(70, t.activeParts().size());
    }
    Path log = dir.resolve("tables");
    try (Stream<Path> s = Files.walk(log)) {
      List<String> names = s.filter(p -> p.getParent().getFileName().toString().equals("log"))
          .map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).toList();
      assertTrue(names.contains(String.format("%020d.checkpoint.json", 64)), names.toString());
      assertEquals(7, names.size(), "checkpoint + entries 65..70: " + names);
    }
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      MergeTreeTable t = db.table("t");
      assertEquals(70, t.activeParts().size());
      assertEquals(70, EngineTestSupport.scan(t, null, false, 2).size());
    }
  }

  @Test
  void interruptedWriteLeavesNoTraceAndCorruptPartGivesClearError() throws Exception {
    String id;
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def("t"), false);
      db.createTable(def("u"), false);
      insert(db.table("t"), 1, 2, 3);
      insert(db.table("u"), 4);
      id = db.table("t").id();
    }
    Path parts = dir.resolve("tables").resolve(id).resolve("parts");
    // An uncommitted part (a crash between writing it and the log entry) and a temp file.
    Files.writeString(parts.resolve("all_99_99_0.orc"), "junk");
    Files.writeString(parts.resolve(".tmp-all_98_98_0.orc-x"), "junk");
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      try (Stream<Path> s = Files.list(parts)) {
        assertEquals(1, s.count(), "unreferenced files removed at open");
      }
      assertEquals(3, EngineTestSupport.scan(db.table("t"), null, false, 1).size());
    }
    // Corrupt the committed part, same size: reads fail with a message naming the part; other tables work.
    Path part;
    try (Stream<Path> s = Files.list(parts)) {
      part = s.findFirst().orElseThrow();
    }
    String name = part.getFileName().toString().replace(".orc", "");
    try (RandomAccessFile f = new RandomAccessFile(part.toFile(), "rw")) {
      f.seek(f.length() / 2);
      f.write(new byte[(int) (f.length() - f.length() / 2)]);
    }
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      Exception e = assertThrows(Exception.class, () -> EngineTestSupport.scan(db.table("t"), null, false, 1));
      String msg = e.getMessage() + (e.getCause() == null ? "" : " / " + e.getCause().getMessage());
      assertTrue(msg.contains("Cannot read part " + name), msg);
      assertEquals(1, EngineTestSupport.scan(db.table("u"), null, false, 1).size());
    }
    // Truncated while closed: the part is moved aside at open and the table opens without it.
    try (RandomAccessFile f = new RandomAccessFile(part.toFile(), "rw")) {
      f.setLength(f.length() / 2);
    }
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      assertEquals(0, EngineTestSupport.scan(db.table("t"), null, false, 1).size());
      var detached = db.table("t").detachedParts();
      assertEquals(1, detached.size());
      assertEquals("broken-on-start_" + name, detached.get(0).name());
      assertTrue(detached.get(0).message().contains("bytes, the part was written with"), detached.get(0).message());
      assertEquals(1, EngineTestSupport.scan(db.table("u"), null, false, 1).size());
    }
  }

  /** storage.fsync = false (scratch databases) changes no result; a value not a boolean is refused. */
  @Test
  void withoutFsyncTheDataIsTheSameAfterReopening() throws Exception {
    Map<String, String> noSync = Map.of("storage.fsync", "false");
    try (Database db = Database.open(dir, EngineTestSupport.manualContext(), noSync)) {
      db.createTable(def("t"), false);
      insert(db.table("t"), 1, 2, 3);
      db.dropTable("t", false);
      db.createTable(def("t"), false);
      insert(db.table("t"), 4, 5);
    }
    try (Database db = Database.open(dir, EngineTestSupport.manualContext(), noSync)) {
      assertEquals(2, EngineTestSupport.scan(db.table("t"), null, false, 1).size());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Database.open(dir, EngineTestSupport.manualContext(), Map.of("storage.fsync", "sometimes")));
    assertTrue(e.getMessage().contains("Invalid value for setting storage.fsync: 'sometimes'"), e.getMessage());
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      assertEquals(2, EngineTestSupport.scan(db.table("t"), null, false, 1).size());
    }
  }

  @Test
  void corruptCatalogIsAClearError() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def("t"), false);
    }
    Files.writeString(dir.resolve("catalog.json"), "{ not json");
    java.io.IOException e = assertThrows(java.io.IOException.class,
        () -> Database.open(dir, EngineTestSupport.manualContext()));
    assertTrue(e.getMessage().contains("corrupt catalog.json"), e.getMessage());
    // The failed open released the lock.
    Files.writeString(dir.resolve("catalog.json"), "{}");
    Database.open(dir, EngineTestSupport.manualContext()).close();
  }
}
