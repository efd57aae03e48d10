package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a crashed process left in {@code tmp/} (spilled joins, spooled uploads) goes when the database opens. */
class ScratchDirectoryTest {
  @TempDir Path dir;

  @Test
  void openingEmptiesTheScratchDirectory() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      Files.writeString(db.scratchDirectory().resolve("spill-1.blocks"), "left by a crash");
    }
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      try (var files = Files.list(db.scratchDirectory())) {
        assertEquals(List.of(), files.toList());
      }
      assertFalse(Files.exists(dir.resolve("tmp").resolve("spill-1.blocks")));
    }
  }
}
