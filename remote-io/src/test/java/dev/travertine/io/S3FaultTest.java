package dev.travertine.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.s3.FaultInjectingHttpClient;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * S3 through a transport that fails a third of all requests (503 SlowDown, connection resets,
 * bodies cut short) and delays every one: the client's retries make every operation succeed, and every byte read
 * back is right.
 */
class S3FaultTest {
  private static S3ProxyFixture s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyFixture("fault-bucket");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  private static FileIO faulty(double rate, int attempts) {
    Map<String, String> p = new HashMap<>(s3.properties());
    p.put("s3.test.failure_rate", Double.toString(rate));
    p.put("s3.test.latency_ms", "2");
    p.put("s3.test.seed", "42");
    p.put("s3.max_attempts", Integer.toString(attempts));
    p.put("s3.retry_base_delay_ms", "5");
    return FileIOs.open("s3://fault-bucket/data", p);
  }

  @Test
  void retriesHideTransientFailuresAndDataStaysRight() throws Exception {
    long before = FaultInjectingHttpClient.INJECTED.get();
    long retries = IoStats.RETRIES.sum();
    Random rnd = new Random(3);
    try (FileIO io = faulty(0.33, 12)) {
      byte[] big = new byte[11 << 20]; // multipart: 3 parts
      rnd.nextBytes(big);
      try (OutputStream out = io.newOutputFile("big.bin").create()) {
        out.write(big);
      }
      for (int i = 0; i < 20; i++) {
        byte[] small = new byte[1000 + i];
        rnd.nextBytes(small);
        io.writeAtomic("small/" + i, small);
        assertArrayEquals(small, io.readAll("small/" + i));
      }
      assertEquals(20, io.list("small").size());
      try (RandomAccessInput in = io.newInputFile("big.bin").open()) {
        List<CompletableFuture<byte[]>> reads = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
          reads.add(in.readAsync(i * 250_000L, 100_000));
        }
        for (int i = 0; i < 40; i++) {
          byte[] got = reads.get(i).join();
          for (int k = 0; k < got.length; k += 997) {
            assertEquals(big[i * 250_000 + k], got[k]);
          }
        }
      }
      assertArrayEquals(big, io.readAll("big.bin"));
    }
    long injected = FaultInjectingHttpClient.INJECTED.get() - before;
    assertTrue(injected > 10, "faults were injected");
    // Every injected fault was retried (none surfaced, none was taken for data). A fault the test did not
    // inject (the server closing a pooled connection, an attempt timeout on a busy machine) is retried too, so
    // the count may be higher than the faults injected; it is never lower.
    long retried = IoStats.RETRIES.sum() - retries;
    assertTrue(retried >= injected, "each injected fault cost a retry: " + injected + " injected, " + retried
        + " retried");
    assertTrue(FaultInjectingHttpClient.INJECTED.get() > 0);
  }

  @Test
  void persistentFailureSurfacesAsAClearError() throws Exception {
    try (FileIO io = faulty(1.0, 3)) {
      java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
          () -> io.writeAtomic("never", new byte[10]));
      assertTrue(e.getMessage().contains("s3://fault-bucket/data/never"), e.getMessage());
    }
  }
}
