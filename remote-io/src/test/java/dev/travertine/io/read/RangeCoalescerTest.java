package dev.travertine.io.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.read.RangeCoalescer.Fetch;
import dev.travertine.io.read.RangeCoalescer.Range;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RangeCoalescerTest {
  private static List<Fetch> plan(long gap, int cap, Range... rs) {
    return RangeCoalescer.coalesce(List.of(rs), gap, cap);
  }

  @Test
  void rangesWithinTheGapShareARequest() {
    assertEquals(List.of(new Fetch(0, 250)), plan(100, 1 << 20, new Range(0, 100), new Range(150, 100)));
    assertEquals(List.of(new Fetch(0, 100), new Fetch(201, 100)),
        plan(100, 1 << 20, new Range(0, 100), new Range(201, 100)), "a gap of 101 > 100 splits");
    assertEquals(List.of(new Fetch(0, 100), new Fetch(100, 100)),
        plan(0, 150, new Range(0, 100), new Range(100, 100)), "adjacent, but together over the cap");
  }

  @Test
  void requestsNeverExceedTheCap() {
    List<Range> rs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rs.add(new Range(i * 1000L, 900));
    }
    List<Fetch> f = RangeCoalescer.coalesce(rs, 200, 10_000);
    assertEquals(10, f.size());
    f.forEach(x -> assertTrue(x.length() <= 10_000, x.toString()));
    assertEquals(new Fetch(0, 9900), f.get(0));
  }

  @Test
  void aLargeRangeIsSplitForParallelReads() {
    assertEquals(List.of(new Fetch(10, 40), new Fetch(50, 40), new Fetch(90, 20)), plan(0, 40, new Range(10, 100)));
  }

  @Test
  void piecesAreCutSmallerThanMergedRequests() {
    assertEquals(List.of(new Fetch(0, 30), new Fetch(30, 30), new Fetch(60, 20)),
        RangeCoalescer.coalesce(List.of(new Range(0, 40), new Range(50, 30)), 100, 1000, 30));
  }

  @Test
  void unsortedOverlappingAndContainedRanges() {
    assertEquals(List.of(new Fetch(0, 300)),
        plan(0, 1000, new Range(200, 100), new Range(0, 150), new Range(100, 150), new Range(10, 5)));
    // Overlapping but over the cap: the second request starts where the first ended (no byte read twice).
    assertEquals(List.of(new Fetch(0, 100), new Fetch(100, 50)), plan(0, 100, new Range(0, 100), new Range(50, 100)));
  }

  @Test
  void emptyInputsAndBadLimits() {
    assertTrue(plan(10, 10).isEmpty());
    assertTrue(plan(10, 10, new Range(5, 0)).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> plan(-1, 10, new Range(0, 1)));
    assertThrows(IllegalArgumentException.class, () -> plan(0, 0, new Range(0, 1)));
    assertThrows(IllegalArgumentException.class, () -> new Range(-1, 1));
  }

  @Test
  void randomPlansCoverEveryByteWithinLimits() {
    Random rnd = new Random(7);
    for (int round = 0; round < 500; round++) {
      List<Range> rs = new ArrayList<>();
      for (int i = rnd.nextInt(20); i > 0; i--) {
        rs.add(new Range(rnd.nextInt(10_000), rnd.nextInt(2_000)));
      }
      long gap = rnd.nextInt(500);
      int cap = 1 + rnd.nextInt(3_000);
      List<Fetch> f = RangeCoalescer.coalesce(rs, gap, cap);
      for (int i = 0; i < f.size(); i++) {
        assertTrue(f.get(i).length() <= cap);
        if (i > 0) {
          assertTrue(f.get(i).offset() >= f.get(i - 1).end(), "ordered, disjoint: " + f);
        }
      }
      for (Range r : rs) {
        for (long b = r.offset(); b < r.end(); b++) {
          long x = b;
          assertTrue(f.stream().anyMatch(ft -> ft.offset() <= x && x < ft.end()), "byte " + b + " of " + r);
        }
      }
    }
  }
}
