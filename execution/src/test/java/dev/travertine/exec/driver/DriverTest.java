package dev.travertine.exec.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchStage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DriverTest {
  private static ExecutorService pool;

  @BeforeAll static void startPool() {
    pool = Executors.newFixedThreadPool(4);
  }

  @AfterAll static void stopPool() {
    pool.shutdownNow();
  }

  /** A batch of {@code n} rows whose values are {@code first, first + 1, ...}. */
  private static Batch batch(long first, int n) {
    LongColumnVector v = new LongColumnVector(n);
    for (int i = 0; i < n; i++) {
      v.vector[i] = first + i;
    }
    return new Batch(new ColumnVector[] {v}, Batch.identity(n), n);
  }

  /** Morsel m hands on {@code batches} batches of {@code rows} rows, values m * 1e6 + ... */
  private static List<Morsel> morsels(int count, int batches, int rows, AtomicInteger runs) {
    List<Morsel> out = new ArrayList<>();
    for (int m = 0; m < count; m++) {
      long base = m * 1_000_000L;
      out.add(sink -> {
        runs.incrementAndGet();
        for (int b = 0; b < batches && !sink.stopped(); b++) {
          sink.push(batch(base + (long) b * rows, rows));
        }
      });
    }
    return out;
  }

  private static long sum(Batch b) {
    long s = 0;
    long[] x = ((LongColumnVector) b.cols()[0]).vector;
    for (int i = 0; i < b.size(); i++) {
      s += x[b.sel()[i]];
    }
    return s;
  }

  @Test void everyBatchOnceThroughItsWorkersStage() throws IOException {
    Set<Thread> stageThreads = ConcurrentHashMap.newKeySet();
    AtomicInteger stages = new AtomicInteger();
    BatchStage.Factory keepEven = () -> {
      stages.incrementAndGet();
      Thread owner = Thread.currentThread();
      return b -> {
        assertSame(owner, Thread.currentThread(), "a stage runs on the worker that made it");
        stageThreads.add(owner);
        int[] sel = new int[b.size()];
        int n = 0;
        long[] x = ((LongColumnVector) b.cols()[0]).vector;
        for (int i = 0; i < b.size(); i++) {
          if (x[b.sel()[i]] % 2 == 0) {
            sel[n++] = b.sel()[i];
          }
        }
        return new Batch(b.cols(), sel, n);
      };
    };
    AtomicInteger runs = new AtomicInteger();
    long got = 0;
    long rows = 0;
    try (Driver d = Driver.start(pool, 3, MorselSource.of(morsels(20, 7, 100, runs)), keepEven, -1, "test")) {
      Batch b;
      while ((b = d.next()) != null) {
        got += sum(b);
        rows += b.size();
      }
    }
    long expected = 0;
    for (int m = 0; m < 20; m++) {
      for (long v = m * 1_000_000L; v < m * 1_000_000L + 700; v++) {
        expected += v % 2 == 0 ? v : 0;
      }
    }
    assertEquals(20 * 350, rows);
    assertEquals(expected, got);
    assertEquals(20, runs.get());
    assertTrue(stages.get() <= 3, "one stage per worker, not per morsel: " + stages.get());
    assertEquals(stages.get(), stageThreads.size());
  }

  @Test void aMorselsFailureIsWhatTheConsumerGetsAndStopsTheRest() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    List<Morsel> list = new ArrayList<>(morsels(3, 2, 10, runs));
    list.add(sink -> {
      throw new IOException("disk on fire");
    });
    list.addAll(morsels(10_000, 1_000, 10, runs));
    MorselSource src = new MorselSource() {
      final MorselSource in = MorselSource.of(list);

      @Override public Morsel next() throws IOException {
        return in.next();
      }

      @Override public void close() {
        closed.incrementAndGet();
      }
    };
    Driver d = Driver.start(pool, 2, src, null, -1, "test");
    IOException e = assertThrows(IOException.class, () -> {
      while (d.next() != null) {
        // drain
      }
    });
    assertEquals("disk on fire", e.getMessage());
    assertTrue(d.stopped());
    assertNull(d.next(), "nothing after the failure");
    d.close();
    d.close();
    assertEquals(1, closed.get(), "the source is closed once, after the workers ended");
    assertTrue(runs.get() < 10_003, "workers stopped taking morsels: " + runs.get());
  }

  @Test void runtimeErrorsOfAStageKeepTheirType() throws Exception {
    BatchStage.Factory bad = () -> b -> {
      throw new IllegalArgumentException("bad value");
    };
    try (Driver d = Driver.start(pool, 2, MorselSource.of(morsels(4, 2, 10, new AtomicInteger())), bad, -1, "t")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, d::next);
      assertEquals("bad value", e.getMessage());
    }
  }

  @Test void aStageThatCannotBeMadeFailsTheReadInsteadOfHangingIt() throws IOException {
    BatchStage.Factory broken = () -> {
      throw new IllegalStateException("Memory limit exceeded: would use 9 GiB");
    };
    try (Driver d = Driver.start(pool, 2, MorselSource.of(morsels(4, 2, 10, new AtomicInteger())), broken, -1, "t")) {
      assertEquals("Memory limit exceeded: would use 9 GiB",
          assertThrows(IllegalStateException.class, d::next).getMessage());
    }
  }

  @Test void theLimitCutsTheLastBatchAndStopsTheWorkers() throws IOException {
    AtomicInteger runs = new AtomicInteger();
    long rows = 0;
    try (Driver d = Driver.start(pool, 2, MorselSource.of(morsels(100_000, 10, 64, runs)), null, 1_000, "t")) {
      Batch b;
      while ((b = d.next()) != null) {
        rows += b.size();
      }
      assertTrue(d.stopped());
    }
    assertEquals(1_000, rows);
    assertTrue(runs.get() < 100_000, "workers stopped at the limit: " + runs.get());
  }

  @Test void closeWhileWorkersWaitForRoomReturns() throws IOException {
    AtomicInteger runs = new AtomicInteger();
    Driver d = Driver.start(pool, 3, MorselSource.of(morsels(1_000, 1_000, 16, runs)), null, -1, "t");
    assertTrue(d.next().size() > 0);
    d.close(); // the workers are blocked on a full queue: close must free them
    assertTrue(d.stopped());
    assertTrue(runs.get() < 1_000);
  }

  @Test void onlyAConsumingStageLetsTheMorselReuseItsVectors() throws IOException {
    for (boolean consuming : new boolean[] {false, true}) {
      List<Boolean> answers = Collections.synchronizedList(new ArrayList<>());
      AtomicLong seen = new AtomicLong();
      BatchStage.Factory stages = consuming
          ? () -> BatchStage.consuming(b -> seen.addAndGet(sum(b)))
          : () -> b -> b;
      Morsel m = sink -> {
        answers.add(sink.push(batch(1, 10)));
        answers.add(sink.push(batch(0, 0)));
      };
      long got = 0;
      try (Driver d = Driver.start(pool, 1, MorselSource.of(List.of(m)), stages, -1, "t")) {
        Batch b;
        while ((b = d.next()) != null) {
          got += sum(b);
        }
      }
      assertEquals(List.of(consuming, true), answers, "an empty batch is never handed on");
      assertEquals(55, consuming ? seen.get() : got);
    }
  }

  @Test void aWorkerKeepsOneResourcePerSlotAndClosesIt() throws IOException {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    List<Morsel> ms = new ArrayList<>();
    for (String file : new String[] {"a", "a", "b", "b", "b"}) {
      ms.add(sink -> {
        AutoCloseable r = sink.keep("file", file, () -> {
          log.add("open " + file);
          return () -> log.add("close " + file);
        });
        assertFalse(r == null);
      });
    }
    try (Driver d = Driver.start(pool, 1, MorselSource.of(ms), null, -1, "t")) {
      assertNull(d.next());
    }
    assertEquals(List.of("open a", "close a", "open b", "close b"), log);
  }

  @Test void idleWorkAndOutsideFailuresReachTheConsumer() throws IOException {
    // A source that has nothing yet: the consumer waits, running its idle work.
    MorselSource waiting = () -> {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return sink -> {};
    };
    AtomicInteger idles = new AtomicInteger();
    try (Driver d = Driver.start(pool, 1, waiting, null, -1, "t", () -> {
      if (idles.incrementAndGet() == 3) {
        throw new IllegalStateException("Query was cancelled");
      }
    })) {
      IllegalStateException e = assertThrows(IllegalStateException.class, d::next);
      assertEquals("Query was cancelled", e.getMessage());
      assertEquals(3, idles.get());
    }
    Driver d = Driver.start(pool, 1, waiting, null, -1, "t");
    d.fail(new IOException("replica r1 failed"));
    d.fail(new IOException("a second failure is dropped"));
    assertEquals("replica r1 failed", assertThrows(IOException.class, d::next).getMessage());
    d.close();
  }
}
