package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.mutation.MutationCommand;
import dev.travertine.mergetree.mutation.MutationCompiler;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Engine-level mutation behaviour with a tiny compiler ({@code col op int} conditions, integer
 * constants): the pending counter spares reads all mutation work, and a mutation committed while
 * a merge runs is not lost.
 */
class MutationEngineTest {
  @TempDir Path dir;

  /** Rows tested by any compiled mutation's WHERE (proves whether reads did mutation work). */
  private final AtomicLong matchCalls = new AtomicLong();
  /** When set, WHERE evaluation on this thread waits for the latch (to hold a merge mid-way). */
  private final AtomicReference<Thread> gatedThread = new AtomicReference<>();
  private final CountDownLatch gateEntered = new CountDownLatch(1);
  private final CountDownLatch gateOpen = new CountDownLatch(1);

  @AfterEach
  void counterBackOn() {
    MergeTreeTable.setPendingMutationCounterEnabled(true);
  }

  private final MutationCompiler compiler = (schema, command) -> {
    Predicate where = null;
    if (command.where() != null) {
      String[] w = command.where().split(" ");
      where = new Predicate.Compare(schema.require(w[0]), switch (w[1]) {
        case "=" -> Predicate.Op.EQ;
        case "<" -> Predicate.Op.LT;
        default -> Predicate.Op.GT;
      }, Long.parseLong(w[2])).bind(schema);
    }
    Predicate cond = where;
    int[] updated = command.assignments().keySet().stream().mapToInt(schema::require).toArray();
    long[] values = command.assignments().values().stream().mapToLong(Long::parseLong).toArray();
    BitSet cols = new BitSet();
    if (cond != null) {
      cond.collectColumns(cols);
    }
    for (int u : updated) {
      cols.set(u);
    }
    return new CompiledMutation() {
      @Override public boolean isDelete() {
        return command.kind() == MutationCommand.Kind.DELETE;
      }

      @Override public BitSet columns() {
        return (BitSet) cols.clone();
      }

      @Override public int[] updated() {
        return updated.clone();
      }

      @Override public Predicate pruning() {
        return cond;
      }

      @Override public int match(ColumnVector[] vectors, int[] sel, int n) {
        matchCalls.incrementAndGet();
        if (Thread.currentThread() == gatedThread.get()) {
          gateEntered.countDown();
          try {
            gateOpen.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return cond == null ? n : cond.filter(vectors, sel, n);
      }

      @Override public void update(ColumnVector[] vectors, int[] rows, int n) {
        for (int u = 0; u < updated.length; u++) {
          for (int i = 0; i < n; i++) {
            Vectors.setDetached(vectors[updated[u]], schema.column(updated[u]).type(), rows[i], values[u]);
          }
        }
      }
    };
  };

  private static TableDefinition def() {
    TableSchema schema = new TableSchema(List.of(
        new Column("k", DataType.of(TypeKind.INTEGER), false),
        new Column("v", DataType.of(TypeKind.BIGINT), true)));
    return new TableDefinition("m", schema, List.of("k"), null, List.of(),
        Map.of("index_granularity", "1024", "min_insert_rows_for_direct_part", "1"), List.of());
  }

  private Database open() throws Exception {
    return Database.open(dir, EngineTestSupport.manualContext().withMutationCompiler(compiler));
  }

  /** Inserts rows k = from..to-1 with v = k % 10 as one part. */
  private static void part(MergeTreeTable t, int from, int to) throws Exception {
    try (Inserter ins = t.newInserter(1 << 20)) {
      for (int k = from; k < to; k++) {
        ins.add(new Object[] {k, (long) (k % 10)});
      }
      ins.commit();
    }
  }

  private static long sumV(MergeTreeTable t) throws Exception {
    long sum = 0;
    for (Object[] r : EngineTestSupport.scan(t, null, false, 2)) {
      sum += r[1] == null ? 0 : (Long) r[1];
    }
    return sum;
  }

  @Test
  void readsDoNoMutationWorkWhenNonePending() throws Exception {
    try (Database db = open()) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("m");
      part(t, 0, 3000);
      part(t, 3000, 6000);
      for (int i = 0; i < 20; i++) {
        t.mutate(MutationCommand.update(Map.of("v", "5"), "k = " + i), true);
      }
      assertEquals(0, t.pendingMutations());
      assertEquals(20, t.mutations().stream().filter(MergeTreeTable.MutationStatus::done).count());
      matchCalls.set(0);
      long sum = sumV(t);
      assertEquals(0, matchCalls.get(), "no finished mutation is looked at by a read");
      try (TableSnapshot s = t.snapshot()) {
        assertFalse(s.mayHavePendingMutations());
      }
      // Without the counter (ClickHouse before PR #60856) every read walks the mutation list.
      MergeTreeTable.setPendingMutationCounterEnabled(false);
      try (TableSnapshot s = t.snapshot()) {
        assertTrue(s.mayHavePendingMutations());
        assertTrue(s.pendingFor(s.parts().get(0)).isEmpty(), "finished mutations apply to nothing");
      }
      assertEquals(sum, sumV(t));
      MergeTreeTable.setPendingMutationCounterEnabled(true);
      // A pending one is applied on read.
      t.stopMerges(true);
      t.mutate(MutationCommand.delete("v = 9"), false);
      assertEquals(1, t.pendingMutations());
      matchCalls.set(0);
      assertEquals(sum - 9 * 598, sumV(t)); // k = 9 and 19 were updated to 5
      assertTrue(matchCalls.get() > 0);
    }
  }

  @Test
  void mutationCommittedDuringAMergeIsNotLost() throws Exception {
    try (Database db = open()) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("m");
      part(t, 0, 2000);
      part(t, 2000, 4000);
      t.stopMerges(true);
      t.mutate(MutationCommand.delete("v = 1"), false); // pending: the merge will apply it
      Thread merger = new Thread(() -> {
        try {
          t.optimize(true);
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      gatedThread.set(merger);
      merger.start();
      assertTrue(gateEntered.await(30, TimeUnit.SECONDS), "merge is applying the first mutation");
      // While the merge runs (its source list and mutation set fixed), a second mutation commits.
      t.mutate(MutationCommand.update(Map.of("v", "100"), "v = 2"), false);
      gateOpen.countDown();
      merger.join(30_000);
      assertEquals(1, t.activeParts().size(), "merged");
      assertEquals(1, t.pendingMutations(), "the second mutation still applies to the merged part");
      long expected = 4000 / 10 * (0 + 100 + 3 + 4 + 5 + 6 + 7 + 8 + 9);
      assertEquals(expected, sumV(t));
      assertTrue(t.mutateOnePart());
      assertEquals(0, t.pendingMutations());
      assertEquals(expected, sumV(t));
      assertEquals(3600, EngineTestSupport.scan(t, null, false, 1).size());
    }
    try (Database db = open()) {
      MergeTreeTable t = db.table("m");
      assertEquals(0, t.pendingMutations(), "after reopening");
      assertEquals(3600, EngineTestSupport.scan(t, null, false, 1).size());
      assertEquals(2, t.mutations().size());
    }
  }
}
