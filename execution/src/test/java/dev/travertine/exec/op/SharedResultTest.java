package dev.travertine.exec.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

class SharedResultTest {
  /** Three batches of 1024, 1024 and 7 rows holding 0, 1, 2, …, the first two with every row selected. */
  private static List<Batch> batches() {
    List<Batch> out = new ArrayList<>();
    long v = 0;
    for (int n : new int[] {1024, 1024, 7}) {
      LongColumnVector c = new LongColumnVector(n);
      for (int i = 0; i < n; i++) {
        c.vector[i] = v++;
      }
      out.add(new Batch(new ColumnVector[] {c}, Batch.identity(n), n));
    }
    return out;
  }

  private static BatchIterator iterator(List<Batch> batches, AtomicInteger closed) {
    Iterator<Batch> it = batches.iterator();
    return new BatchIterator() {
      @Override public Batch next() {
        return it.hasNext() ? it.next() : null;
      }

      @Override public void close() {
        closed.incrementAndGet();
      }
    };
  }

  /** Every value the stage hands on, in order. */
  private static List<Long> read(SharedResult r, BatchStage.Factory stages, long limit) throws IOException {
    List<Long> out = new ArrayList<>();
    try (BatchIterator it = r.open(stages, limit, null)) {
      Batch b;
      while ((b = it.next()) != null) {
        for (int i = 0; i < b.size(); i++) {
          out.add(((LongColumnVector) b.cols()[0]).vector[b.sel()[i]]);
        }
      }
    }
    return out;
  }

  /** Keeps the even values in a selection of its own. */
  private static final BatchStage.Factory EVEN = () -> b -> {
    int[] sel = new int[b.size()];
    int m = 0;
    for (int i = 0; i < b.size(); i++) {
      if (((LongColumnVector) b.cols()[0]).vector[b.sel()[i]] % 2 == 0) {
        sel[m++] = b.sel()[i];
      }
    }
    return new Batch(b.cols(), sel, m);
  };

  @Test
  void runsOnceAndEveryOpenReadsTheSameRows() throws IOException {
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    MemoryTracker memory = MemoryTracker.unlimited();
    SharedResult r = new SharedResult(() -> {
      runs.incrementAndGet();
      return iterator(batches(), closed);
    }, List.of(VectorFixtures.BIG), memory);
    assertEquals(0, r.rows());

    List<Long> all = read(r, null, -1);
    assertEquals(2055, all.size());
    for (int i = 0; i < all.size(); i++) {
      assertEquals(i, all.get(i));
    }
    assertEquals(1, runs.get());
    assertEquals(1, closed.get(), "the subplan's output is closed once read");
    assertEquals(2055, r.rows());
    assertTrue(memory.used() >= 2055 * 8L, "the kept batches are charged: " + memory.used());

    List<Long> even = read(r, EVEN, -1);
    assertEquals(1028, even.size());
    assertEquals(2054L, even.get(even.size() - 1));
    assertEquals(all, read(r, null, -1), "a stage's selection does not change what the next use reads");
    assertEquals(1, runs.get());

    // a limit stops after the batch that reaches it
    assertEquals(1024, read(r, null, 10).size());

    r.release();
    assertEquals(0, memory.used());
  }

  @Test
  void aFailingSubplanFailsItsUsesAndHoldsNoMemory() {
    MemoryTracker memory = MemoryTracker.unlimited();
    AtomicInteger runs = new AtomicInteger();
    SharedResult r = new SharedResult(() -> {
      runs.incrementAndGet();
      Iterator<Batch> it = batches().iterator();
      return new BatchIterator() {
        @Override public Batch next() throws IOException {
          if (!it.hasNext()) {
            throw new IOException("disk gone");
          }
          return it.next();
        }

        @Override public void close() {}
      };
    }, List.of(VectorFixtures.BIG), memory);
    IOException e = assertThrows(IOException.class, () -> read(r, null, -1));
    assertEquals("disk gone", e.getMessage());
    assertEquals(0, memory.used());
    assertThrows(IOException.class, () -> read(r, null, -1), "a later use runs it again and fails again");
    assertEquals(2, runs.get());
  }

  @Test
  void theQueryMemoryLimitCountsTheKeptRows() {
    MemoryTracker memory = new MemoryTracker(4096);
    SharedResult r = new SharedResult(() -> iterator(batches(), new AtomicInteger()), List.of(VectorFixtures.BIG),
        memory);
    var e = assertThrows(MemoryTracker.MemoryLimitExceededException.class, () -> read(r, null, -1));
    assertTrue(e.getMessage().contains("max_memory_usage"), e.getMessage());
    assertEquals(0, memory.used());
  }

  @Test
  void hasNoStatistics() {
    SharedResult r = new SharedResult(() -> iterator(List.of(), new AtomicInteger()), List.of(VectorFixtures.BIG),
        MemoryTracker.unlimited());
    assertSame(null, r.statistics());
  }
}
