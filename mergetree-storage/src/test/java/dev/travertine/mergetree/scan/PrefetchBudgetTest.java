package dev.travertine.mergetree.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A scan's prefetch budget: its own limit, inside the one all scans of the process share. */
class PrefetchBudgetTest {
  /** A reservation past the scan's limit is refused and takes nothing; released bytes can be taken again. */
  @Test
  void aScansLimitHolds() {
    PrefetchBudget b = new PrefetchBudget(100);
    assertTrue(b.reserve(60));
    assertFalse(b.reserve(41), "60 + 41 > 100");
    assertEquals(60, b.held(), "a refused reservation takes nothing");
    assertTrue(b.reserve(40));
    assertEquals(100, b.held());
    b.release(60);
    assertTrue(b.reserve(50));
    b.release(90);
    assertEquals(0, b.held());
  }

  /** Scans with room of their own are refused once all of them together would pass the process's limit. */
  @Test
  void allScansShareTheProcessLimit() {
    long third = PrefetchBudget.PROCESS_LIMIT / 3;
    PrefetchBudget a = new PrefetchBudget(Long.MAX_VALUE);
    PrefetchBudget b = new PrefetchBudget(Long.MAX_VALUE);
    assertTrue(a.reserve(2 * third));
    assertFalse(b.reserve(2 * third), "together past the process's limit");
    assertEquals(0, b.held(), "the refused scan holds nothing");
    assertTrue(b.reserve(third / 2), "what is left can be taken");
    a.release(2 * third);
    assertTrue(b.reserve(2 * third), "a released reservation is free for others");
    b.release(2 * third + third / 2);
  }
}
