package dev.travertine.mergetree.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PrefetchWindowTest {
  private static final long MS = 1_000_000L;

  @Test
  void startsAtOneAndStaysWhilePrefetchesArriveInTime() {
    PrefetchWindow w = new PrefetchWindow(200, 1, 0);
    assertEquals(1, w.size());
    w.consumed(100 * MS);
    w.used(true, 0);
    w.used(true, 0);
    assertEquals(1, w.size(), "decoding is slower than fetching: one ahead is enough");
  }

  @Test
  void growsToWhatTheTimingsSayAfterOneWait() {
    PrefetchWindow w = new PrefetchWindow(200, 1, 0);
    w.consumed(10 * MS); // the scan spends 10 ms on a stripe
    w.used(false, 65 * MS); // a stripe took 65 ms to arrive
    assertEquals(7, w.size(), "ceil(65 / 10)");
    w.used(false, 20 * MS);
    assertEquals(14, w.size(), "waiting again: at least doubles");
    w.used(true, 0);
    assertEquals(14, w.size(), "a scan that caught up keeps its window");
  }

  @Test
  void readersShareTheWindow() {
    PrefetchWindow w = new PrefetchWindow(200, 2, 0);
    w.consumed(10 * MS);
    w.used(false, 65 * MS);
    assertEquals(13, w.size(), "two readers consume twice as fast: ceil(2 * 65 / 10)");
  }

  @Test
  void withoutTimingsItDoublesAndTheLimitCaps() {
    PrefetchWindow w = new PrefetchWindow(200, 1, 0);
    w.used(false, 50 * MS); // no task consumed yet
    assertEquals(2, w.size());
    w.used(false, 0);
    assertEquals(4, w.size());
    w.consumed(1);
    w.used(false, 1_000 * MS);
    assertEquals(200, w.size(), "capped by filesystem_prefetches_limit");
  }

  @Test
  void smallTasksAreFetchedAheadUntilOneFullRequestIsInFlight() {
    PrefetchWindow w = new PrefetchWindow(200, 1, 8 << 20);
    assertTrue(w.wantsMore(0, 0));
    assertFalse(w.wantsMore(1, 26 << 20), "a large stripe: one ahead");
    assertTrue(w.wantsMore(1, 110_000), "small stripes: more ahead");
    assertTrue(w.wantsMore(70, 70 * 110_000L));
    assertFalse(w.wantsMore(77, 77 * 110_000L), "8 MiB in flight");
    assertFalse(new PrefetchWindow(3, 1, 8 << 20).wantsMore(3, 0), "never past filesystem_prefetches_limit");
    assertFalse(new PrefetchWindow(0, 1, 8 << 20).wantsMore(0, 0), "prefetching off");
    w.consumed(10 * MS);
    w.used(false, 100 * MS);
    assertTrue(w.wantsMore(9, 100L << 20), "the grown window counts too");
    assertFalse(w.wantsMore(10, 100L << 20));
  }

  @Test
  void limitsOfZeroOneAndNoLimit() {
    PrefetchWindow off = new PrefetchWindow(0, 1, 0);
    off.used(false, MS);
    assertEquals(0, off.size(), "not prefetching");
    PrefetchWindow one = new PrefetchWindow(1, 1, 0);
    one.consumed(MS);
    one.used(false, 100 * MS);
    assertEquals(1, one.size());
    PrefetchWindow unlimited = new PrefetchWindow(Integer.MAX_VALUE, 1, 0);
    for (int i = 0; i < 40; i++) {
      unlimited.used(false, 0);
    }
    assertEquals(Integer.MAX_VALUE, unlimited.size(), "no overflow");
    unlimited = new PrefetchWindow(Integer.MAX_VALUE, 8, 0);
    unlimited.consumed(1);
    unlimited.used(false, Long.MAX_VALUE / 16);
    assertEquals(Integer.MAX_VALUE, unlimited.size(), "no overflow from the timings");
  }
}
