package dev.travertine.calcite;

import dev.travertine.io.MiniHdfsFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The storage end-to-end suite on HDFS (MiniDFSCluster in this JVM). */
class HdfsStorageTest extends StorageEndToEndTest {
  private static MiniHdfsFixture hdfs;
  private static Path base;

  @BeforeAll
  static void start() throws Exception {
    base = Files.createTempDirectory("travertine-hdfs");
    hdfs = new MiniHdfsFixture(base);
  }

  @AfterAll
  static void stop() {
    hdfs.close();
  }

  @Override
  protected String location() {
    return hdfs.uri() + "/warehouse";
  }

  @Override
  protected Map<String, String> properties() {
    return Map.of();
  }
}
