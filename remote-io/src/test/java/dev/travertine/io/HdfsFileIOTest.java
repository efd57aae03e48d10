package dev.travertine.io;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The FileIO contract on HDFS (MiniDFSCluster in this JVM). */
class HdfsFileIOTest extends FileIOContractTest {
  @TempDir static Path base;
  private static MiniHdfsFixture hdfs;
  private static FileIO io;

  @BeforeAll
  static void start() throws Exception {
    hdfs = new MiniHdfsFixture(base);
    io = FileIOs.open(hdfs.uri() + "/travertine/contract", Map.of());
  }

  @AfterAll
  static void stop() throws Exception {
    io.close();
    hdfs.close();
  }

  @Override
  protected FileIO io() {
    return io;
  }

  @Test
  void unreachableNamenodeIsAClearError() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FileIOs.open("hdfs://127.0.0.1:" + port + "/x", Map.of("hadoop.ipc.client.connect.max.retries", "0")));
    assertTrue(e.getMessage().contains("namenode"), e.getMessage());
  }
}
