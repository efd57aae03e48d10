package dev.travertine.exec.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MemoryTrackerTest {

  @Test void pastTheLimitThrowsNamingMaxMemoryUsage() {
    MemoryTracker t = new MemoryTracker(10_000);
    MemoryTracker.Account a = t.account();
    MemoryTracker.Account b = t.account();
    a.resize(6_000);
    b.resize(4_000); // exactly at the limit: fine
    assertEquals(10_000, t.used());
    MemoryTracker.MemoryLimitExceededException e =
        assertThrows(MemoryTracker.MemoryLimitExceededException.class, () -> b.resize(4_001));
    assertEquals("Memory limit (for query) exceeded: would use 9.77 KiB, maximum: 9.77 KiB (max_memory_usage = 10000)",
        e.getMessage());
    assertTrue(e.getMessage().contains("max_memory_usage = 10000"));
    e = assertThrows(MemoryTracker.MemoryLimitExceededException.class, () -> a.resize(1L << 40));
    assertTrue(e.getMessage().startsWith("Memory limit (for query) exceeded: would use 1.00 TiB, maximum: 9.77 KiB"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("(max_memory_usage = 10000)"), e.getMessage());
  }

  @Test void releaseGivesTheBytesBack() {
    MemoryTracker t = new MemoryTracker(1_000);
    MemoryTracker.Account a = t.account();
    MemoryTracker.Account b = t.account();
    a.resize(700);
    assertThrows(MemoryTracker.MemoryLimitExceededException.class, () -> b.resize(400));
    a.release();
    assertEquals(400, t.used()); // the failed account still holds what it asked for
    b.release();
    assertEquals(0, t.used());
    b.resize(1_000); // the whole limit is free again
    assertEquals(1_000, t.used());
    assertEquals(1_100, t.peak());
    b.release();
    b.release(); // twice: nothing more to give back
    assertEquals(0, t.used());
  }

  @Test void shrinkingNeverThrows() {
    MemoryTracker t = new MemoryTracker(100);
    MemoryTracker.Account a = t.account();
    assertThrows(MemoryTracker.MemoryLimitExceededException.class, () -> a.resize(500));
    a.resize(300); // still above the limit, but smaller
    a.resize(300);
    assertEquals(300, t.used());
    a.resize(50);
    assertEquals(50, t.used());
  }

  @Test void unlimitedNeverThrows() {
    for (MemoryTracker t : new MemoryTracker[] {MemoryTracker.unlimited(), new MemoryTracker(0)}) {
      MemoryTracker.Account a = t.account();
      a.resize(1L << 60);
      t.account().resize(1L << 60);
      assertEquals(1L << 61, t.used());
      a.release();
      assertEquals(1L << 60, t.used());
      assertEquals(1L << 61, t.peak());
    }
  }

  @Test void accountsOfManyThreadsAddUp() throws InterruptedException {
    MemoryTracker t = new MemoryTracker(0);
    List<Thread> threads = new ArrayList<>();
    long[] finals = new long[4];
    for (int i = 0; i < 4; i++) {
      int id = i;
      threads.add(new Thread(() -> {
        MemoryTracker.Account a = t.account();
        Random rnd = new Random(id);
        long last = 0;
        for (int k = 0; k < 100_000; k++) {
          last = rnd.nextInt(1 << 20);
          a.resize(last);
        }
        finals[id] = last;
      }));
    }
    threads.forEach(Thread::start);
    for (Thread th : threads) {
      th.join();
    }
    assertEquals(finals[0] + finals[1] + finals[2] + finals[3], t.used());
    assertTrue(t.peak() >= t.used() && t.peak() <= 4L << 20);
  }

  @Test void sizesInBinaryUnits() {
    assertEquals("0 B", MemoryTracker.size(0));
    assertEquals("1023 B", MemoryTracker.size(1023));
    assertEquals("1.00 KiB", MemoryTracker.size(1024));
    assertEquals("1.50 MiB", MemoryTracker.size(3L << 19));
    assertEquals("2.00 GiB", MemoryTracker.size(2L << 30));
    assertEquals("8192.00 TiB", MemoryTracker.size(1L << 53));
  }
}
