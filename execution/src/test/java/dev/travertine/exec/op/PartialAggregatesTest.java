package dev.travertine.exec.op;

import static dev.travertine.exec.agg.HashAggregatorTest.CALLS;
import static dev.travertine.exec.agg.HashAggregatorTest.K_BIG;
import static dev.travertine.exec.agg.HashAggregatorTest.K_BIG2;
import static dev.travertine.exec.agg.HashAggregatorTest.K_DEC;
import static dev.travertine.exec.agg.HashAggregatorTest.K_INT;
import static dev.travertine.exec.agg.HashAggregatorTest.K_STR;
import static dev.travertine.exec.agg.HashAggregatorTest.K_TS;
import static dev.travertine.exec.agg.HashAggregatorTest.TYPES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.AggReference;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.exec.agg.HashAggregatorTest;
import dev.travertine.exec.op.VectorFixtures.Col;
import dev.travertine.exec.op.VectorFixtures.Generated;
import dev.travertine.exec.op.VectorFixtures.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Partial aggregates of several workers that put tables aside and merge by hash partition, with
 * thresholds small enough that seeded random batches of a few thousand groups take every path:
 * tables put aside and grown, partitions merged on one thread and on a pool; against
 * {@link AggReference}, for every group-table kind and every aggregate.
 */
class PartialAggregatesTest {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
  private static final PartialAggregates.Tuning SMALL = new PartialAggregates.Tuning(64, 512, 200);

  @AfterAll static void stop() {
    POOL.shutdownNow();
  }

  /** CALLS without COUNT(DISTINCT) of non-long arguments (which keep the simple merge). */
  private static final List<AggCall> PARTITIONABLE = CALLS.stream()
      .filter(c -> !c.distinct() || TYPES.get(c.arg()).kind().isLongBacked()).toList();

  private static Map<List<Object>, List<Object>> run(List<Generated> batches, int[] keys, List<AggCall> calls,
      PartialAggregates.Tuning tuning, Workers pool, Random rnd, int workers, MemoryTracker memory) {
    PartialAggregates p = new PartialAggregates(TYPES, keys, calls, tuning);
    List<PartialAggregates.Worker> ws = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      ws.add(p.worker());
    }
    for (Generated g : batches) {
      ws.get(rnd.nextInt(workers)).add(g.batch());
    }
    List<HashAggregator> out = p.finish(pool, () -> {}, memory);
    return AggReference.actual(out, TYPES, keys, calls, 1 + rnd.nextInt(500));
  }

  private static void check(String name, long seed, int[] keys, int[] distinct, List<AggCall> calls) {
    Random rnd = new Random(seed);
    List<Col> cols = HashAggregatorTest.columns(rnd, distinct, 0.1);
    List<Generated> batches = HashAggregatorTest.batches(rnd, cols, Shape.DEFAULT, 30);
    Map<List<Object>, List<Object>> expected = AggReference.aggregate(HashAggregatorTest.rows(batches), TYPES, keys,
        calls);
    assertTrue(keys.length == 0 || expected.size() > SMALL.partitionThreshold(), name + ": only " + expected.size());
    for (Workers pool : List.of(Workers.callerOnly(), new Workers(POOL, 3))) {
      for (int workers : new int[] {1, 3}) {
        MemoryTracker memory = MemoryTracker.unlimited();
        String what = name + " seed " + seed + ", " + workers + " workers on " + pool.threads() + " threads";
        AggReference.assertSame(what, expected, run(batches, keys, calls, SMALL, pool, rnd, workers, memory), calls);
        // The merge charges what it adds (a table it builds, or a worker's table growing), not
        // what the workers' accounts hold already: one group (no keys) adds nothing.
        assertTrue(workers == 1 || keys.length == 0 || memory.peak() > 0, what + ": the merge charged nothing");
      }
    }
  }

  @Test void oneLongKey() {
    check("BIGINT key", 1, new int[] {K_BIG}, new int[] {3000}, PARTITIONABLE);
  }

  @Test void longTuple() {
    check("(INTEGER, BIGINT) key", 2, new int[] {K_INT, K_BIG2}, new int[] {0, 80, 60}, PARTITIONABLE);
  }

  @Test void stringKey() {
    check("VARCHAR key", 3, new int[] {K_STR}, new int[] {0, 0, 0, 2500}, PARTITIONABLE);
  }

  @Test void longAndStringTuple() {
    check("(BIGINT, VARCHAR) key", 7, new int[] {K_BIG, K_STR}, new int[] {60, 0, 0, 70}, PARTITIONABLE);
  }

  @Test void serializedKeys() {
    check("(VARCHAR, BIGINT, DECIMAL, TIMESTAMP) key", 4, new int[] {K_STR, K_BIG, K_DEC, K_TS},
        new int[] {30, 0, 0, 20, 5, 4}, PARTITIONABLE);
  }

  @Test void countDistinctOfStringsKeepsTheSimpleMerge() {
    check("BIGINT key, all calls", 5, new int[] {K_BIG}, new int[] {3000}, CALLS);
  }

  @Test void noKeys() {
    check("no keys", 6, new int[0], new int[0], PARTITIONABLE);
  }

  @Test void noRows() {
    Random rnd = new Random(7);
    for (int[] keys : List.of(new int[0], new int[] {K_BIG})) {
      Map<List<Object>, List<Object>> expected = AggReference.aggregate(List.of(), TYPES, keys, PARTITIONABLE);
      AggReference.assertSame("no rows", expected,
          run(List.of(), keys, PARTITIONABLE, SMALL, new Workers(POOL, 2), rnd, 2, MemoryTracker.unlimited()),
          PARTITIONABLE);
    }
  }

  /**
   * Several "replicas" aggregate their share of the batches to partial form; the "initiator"
   * folds those batches, in random order and cut to random sizes, into workers of its own
   * (FINAL) and merges them: the same groups and results as aggregating all rows at once.
   */
  private static void checkPartialForm(String name, long seed, int[] keys, int[] distinct, List<AggCall> calls) {
    Random rnd = new Random(seed);
    List<Col> cols = HashAggregatorTest.columns(rnd, distinct, 0.1);
    List<Generated> batches = HashAggregatorTest.batches(rnd, cols, Shape.DEFAULT, 30);
    Map<List<Object>, List<Object>> expected = AggReference.aggregate(HashAggregatorTest.rows(batches), TYPES, keys,
        calls);
    int replicas = 3;
    List<List<Generated>> shares = new ArrayList<>();
    for (int r = 0; r < replicas; r++) {
      shares.add(new ArrayList<>());
    }
    for (Generated g : batches) { // replica 2 gets few batches, maybe none
      shares.get(rnd.nextInt(20) == 0 ? 2 : rnd.nextInt(2)).add(g);
    }
    List<List<dev.travertine.vector.Batch>> sent = new ArrayList<>();
    for (List<Generated> share : shares) {
      PartialAggregates p = new PartialAggregates(TYPES, keys, calls, SMALL);
      List<PartialAggregates.Worker> ws = List.of(p.worker(), p.worker());
      for (Generated g : share) {
        ws.get(rnd.nextInt(2)).add(g.batch());
      }
      List<dev.travertine.vector.Batch> out = new ArrayList<>();
      for (HashAggregator h : p.finish(new Workers(POOL, 2), () -> {}, MemoryTracker.unlimited())) {
        for (dev.travertine.vector.Batch b : h.partialResult(1 + rnd.nextInt(300))) {
          assertEquals(h.partialTypes().size(), b.cols().length);
          out.add(b);
        }
      }
      sent.add(out);
    }
    List<dev.travertine.vector.Batch> all = new ArrayList<>();
    sent.forEach(all::addAll);
    java.util.Collections.shuffle(all, rnd);
    PartialAggregates fin = new PartialAggregates(TYPES, keys, calls, SMALL);
    List<PartialAggregates.Worker> ws = List.of(fin.worker(), fin.worker(), fin.worker());
    for (dev.travertine.vector.Batch b : all) {
      ws.get(rnd.nextInt(ws.size())).addPartial(b);
    }
    List<HashAggregator> out = fin.finish(new Workers(POOL, 3), () -> {}, MemoryTracker.unlimited());
    AggReference.assertSame(name + " in partial form", expected,
        AggReference.actual(out, TYPES, keys, calls, 1 + rnd.nextInt(500)), calls);
  }

  @Test void partialFormMergesToTheSameResult() {
    checkPartialForm("BIGINT key", 11, new int[] {K_BIG}, new int[] {3000}, CALLS);
    checkPartialForm("(INTEGER, BIGINT) key", 12, new int[] {K_INT, K_BIG2}, new int[] {0, 80, 60}, CALLS);
    checkPartialForm("VARCHAR key", 13, new int[] {K_STR}, new int[] {0, 0, 0, 2500}, CALLS);
    checkPartialForm("(BIGINT, VARCHAR) key", 16, new int[] {K_BIG, K_STR}, new int[] {60, 0, 0, 70}, CALLS);
    checkPartialForm("(VARCHAR, BIGINT, DECIMAL, TIMESTAMP) key", 14, new int[] {K_STR, K_BIG, K_DEC, K_TS},
        new int[] {30, 0, 0, 20, 5, 4}, CALLS);
    checkPartialForm("no keys", 15, new int[0], new int[0], CALLS);
  }

  @Test void mergingPastTheMemoryLimitFails() {
    Random rnd = new Random(8);
    List<Col> cols = HashAggregatorTest.columns(rnd, new int[] {3000}, 0.1);
    List<Generated> batches = HashAggregatorTest.batches(rnd, cols, Shape.DEFAULT, 30);
    // Enough for the workers' tables: the merge's new tables pass it.
    PartialAggregates p = new PartialAggregates(TYPES, new int[] {K_BIG}, PARTITIONABLE, SMALL);
    PartialAggregates.Worker w = p.worker();
    batches.forEach(g -> w.add(g.batch()));
    MemoryTracker limited = new MemoryTracker(w.bytes() + 1);
    limited.account().resize(w.bytes());
    assertThrows(MemoryTracker.MemoryLimitExceededException.class,
        () -> p.finish(new Workers(POOL, 2), () -> {}, limited));
  }

  @Test void workersRunEveryTaskOnceAndRethrowTheFirstFailure() {
    Workers pool = new Workers(POOL, 3);
    AtomicIntegerArray runs = new AtomicIntegerArray(100);
    pool.run(100, t -> runs.incrementAndGet(t), () -> {});
    for (int t = 0; t < 100; t++) {
      assertEquals(1, runs.get(t), "task " + t);
    }
    AtomicInteger started = new AtomicInteger();
    // The other tasks take a millisecond each: running all 1000 would take a second at least,
    // while the failure of task 5 (among the first started) stops them at once.
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.run(1000, t -> {
      started.incrementAndGet();
      if (t == 5) {
        throw new IllegalStateException("task 5 failed");
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    }, () -> {}));
    assertEquals("task 5 failed", e.getMessage());
    assertTrue(started.get() < 1000, "the failure stops the other tasks: " + started.get() + " started");
    RuntimeException cancelled = assertThrows(RuntimeException.class,
        () -> pool.run(10, t -> {}, () -> {
          throw new RuntimeException("cancelled");
        }));
    assertEquals("cancelled", cancelled.getMessage());
  }
}
