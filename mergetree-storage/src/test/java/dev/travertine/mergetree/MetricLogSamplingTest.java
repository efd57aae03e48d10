package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code system.metric_log} keeps its sample a second while background work holds every thread of
 * the background pool (long merges did, and the dashboard showed holes in its charts).
 */
class MetricLogSamplingTest {
  @TempDir Path dir;

  @Test
  void samplesGoOnWhileTheBackgroundPoolIsBusy() throws Exception {
    try (Database db = Database.open(dir)) {
      CountDownLatch release = new CountDownLatch(1);
      int threads = Math.max(2, Runtime.getRuntime().availableProcessors() / 2); // the pool's size
      CountDownLatch busy = new CountDownLatch(threads);
      for (int i = 0; i < threads; i++) {
        db.context().background().execute(() -> {
          busy.countDown();
          try {
            release.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      }
      try {
        assertTrue(busy.await(30, TimeUnit.SECONDS), "every background thread is held");
        int before = db.metricLog().samples().size();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (db.metricLog().samples().size() < before + 3) {
          assertTrue(System.nanoTime() < deadline, "samples while the pool is held: "
              + (db.metricLog().samples().size() - before));
          Thread.sleep(50);
        }
      } finally {
        release.countDown();
      }
    }
  }
}
