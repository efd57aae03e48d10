package dev.travertine.io;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.s3.S3FileIO;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The FileIO contract on S3 (S3Proxy in this JVM), and S3's own failure messages. */
class S3FileIOTest extends FileIOContractTest {
  private static S3ProxyFixture s3;
  private static FileIO io;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyFixture("contract-bucket");
    io = FileIOs.open("s3://contract-bucket/some/prefix", s3.properties());
  }

  @AfterAll
  static void stop() throws Exception {
    io.close();
    s3.close();
  }

  @Override
  protected FileIO io() {
    return io;
  }

  @Test
  void missingBucketIsAClearError() throws IOException {
    try (FileIO other = FileIOs.open("s3://no-such-bucket/x", s3.properties())) {
      IOException e = assertThrows(IOException.class, () -> other.writeAtomic("a", new byte[1]));
      assertTrue(e.getMessage().contains("bucket no-such-bucket does not exist"), e.getMessage());
    }
  }

  @Test
  void wrongCredentialsAreAClearError() throws IOException {
    Map<String, String> p = new HashMap<>(s3.properties());
    p.put("s3.secret_access_key", "wrong");
    try (FileIO other = FileIOs.open("s3://contract-bucket/x", p)) {
      IOException e = assertThrows(IOException.class, () -> other.writeAtomic("a", new byte[1]));
      assertTrue(e.getMessage().contains("access denied"), e.getMessage());
    }
  }

  @Test
  void unreachableEndpointIsAClearError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    Map<String, String> p = new HashMap<>(s3.properties());
    p.put("s3.endpoint", "http://127.0.0.1:" + port);
    p.put("s3.max_attempts", "2");
    try (FileIO other = FileIOs.open("s3://contract-bucket/x", p)) {
      IOException e = assertThrows(IOException.class, () -> other.readAll("a"));
      assertTrue(e.getMessage().contains("cannot reach the S3 endpoint"), e.getMessage());
    }
  }

  @Test
  void locationNamesBucketAndPrefix() {
    assertTrue(io.location().equals("s3://contract-bucket/some/prefix"), io.location());
    assertThrows(IllegalArgumentException.class, () -> S3FileIO.open(java.net.URI.create("s3:///x"), s3.config()));
  }
}
