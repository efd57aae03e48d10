package dev.travertine.mergetree.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PrefetchWindowTest {
  @Test
  void startsAtOneAndDoublesOnlyWhenTheScanWaited() {
    PrefetchWindow w = new PrefetchWindow(200);
    assertEquals(1, w.size());
    w.used(true);
    assertEquals(1, w.size(), "the prefetch had arrived: one ahead is enough");
    w.used(false);
    assertEquals(2, w.size());
    w.used(false);
    w.used(true);
    w.used(false);
    assertEquals(8, w.size());
    for (int i = 0; i < 10; i++) {
      w.used(false);
    }
    assertEquals(200, w.size(), "capped by filesystem_prefetches_limit");
    w.used(true);
    assertEquals(200, w.size(), "a scan that caught up keeps its window");
  }

  @Test
  void limitsOfZeroOneAndNoLimit() {
    PrefetchWindow off = new PrefetchWindow(0);
    off.used(false);
    assertEquals(0, off.size(), "not prefetching");
    PrefetchWindow one = new PrefetchWindow(1);
    one.used(false);
    assertEquals(1, one.size());
    PrefetchWindow unlimited = new PrefetchWindow(Integer.MAX_VALUE);
    for (int i = 0; i < 40; i++) {
      unlimited.used(false);
    }
    assertEquals(Integer.MAX_VALUE, unlimited.size(), "no overflow");
  }
}
