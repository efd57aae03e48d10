package dev.travertine.io;

import dev.travertine.io.local.LocalFileIO;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

class LocalFileIOTest extends FileIOContractTest {
  @TempDir static Path dir;
  private static FileIO io;

  @BeforeAll
  static void open() {
    io = new LocalFileIO(dir);
  }

  @Override
  protected FileIO io() {
    return io;
  }
}
