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

  @org.junit.jupiter.api.Test
  void hdfsTableFunction() throws Exception {
    try (dev.travertine.io.FileIO io = dev.travertine.io.FileIOs.open(hdfs.uri() + "/files", Map.of())) {
      PlainOrcFiles.write(io, "day=1/a.orc", 0, 700);
      PlainOrcFiles.write(io, "day=2/b.orc", 700, 300);
    }
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:travertine:" + dir)) {
      org.junit.jupiter.api.Assertions.assertEquals("1000, 499500", JdbcTestSupport.one(c,
          "SELECT count(*), sum(id) FROM TABLE(hdfs('" + hdfs.uri() + "/files/day=*/*.orc'))"));
    }
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
