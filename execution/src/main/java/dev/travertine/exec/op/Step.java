package dev.travertine.exec.op;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.expr.Expr;
import dev.travertine.vector.DataType;
import java.util.List;

/**
 * One operator of a vectorized {@link Fragment}, applied to the output of the step before it (the
 * first to the scan's fields). Field indexes are positions in the input's fields.
 */
public sealed interface Step {

  /** Keeps the rows where {@code condition} is TRUE. */
  record Filter(Expr condition) implements Step {}

  /** Computes the output fields. */
  record Project(List<Expr> exprs) implements Step {
    public Project {
      exprs = List.copyOf(exprs);
    }
  }

  /**
   * Groups by the {@code keys} fields; outputs the keys, then one field per call. A distributed
   * plan splits it in two phases ({@link Fragments#split}): PARTIAL outputs the keys and each
   * call's state in partial form ({@link dev.travertine.exec.agg.HashAggregator#partialTypes}),
   * FINAL takes that form and outputs the keys and results.
   *
   * @param sourceTypes for FINAL, the input types of the aggregate that was split (its keys and
   *     call arguments index them); null otherwise
   */
  record Aggregate(int[] keys, List<AggCall> calls, Phase phase, List<DataType> sourceTypes) implements Step {
    public Aggregate {
      calls = List.copyOf(calls);
      if ((phase == Phase.FINAL) != (sourceTypes != null)) {
        throw new IllegalArgumentException("A FINAL aggregate, and only it, names its source types");
      }
      sourceTypes = sourceTypes == null ? null : List.copyOf(sourceTypes);
    }

    public Aggregate(int[] keys, List<AggCall> calls) {
      this(keys, calls, Phase.COMPLETE, null);
    }
  }

  /** Which part of an aggregation an {@link Aggregate} step does. */
  enum Phase { COMPLETE, PARTIAL, FINAL }

  /**
   * Orders by {@code keys} (none: keeps the input order), then skips {@code offset} rows and
   * keeps {@code fetch} (-1 = all).
   */
  record Sort(List<SortKey> keys, long offset, long fetch) implements Step {
    public Sort {
      keys = List.copyOf(keys);
    }

    /** Rows kept from the start of the order: offset + fetch, or -1 for all. */
    public long bound() {
      return fetch < 0 ? -1 : offset > Long.MAX_VALUE - fetch ? Long.MAX_VALUE : offset + fetch;
    }
  }

  /**
   * A hash join: this fragment's rows so far are the probe side; {@code build} is a fragment of its
   * own (over scan source {@code buildSource}, which the runner resolves) whose output is hashed on
   * {@code buildKeys} before the probe starts. Keys pair up by position and compare with SQL's
   * equality (a NULL key matches nothing). No keys at all: every probe row meets every build row
   * (one bucket), for a build side of a row or so (a scalar subquery). Output: the probe's fields,
   * then for INNER and LEFT the build's fields.
   *
   * @param residual a condition over the probe's fields then the build's that a pair must also
   *     meet, or null
   */
  record HashJoin(dev.travertine.exec.join.HashJoinProbe.Kind kind, int[] probeKeys, int[] buildKeys,
      Fragment build, int buildSource, Expr residual) implements Step {
    public HashJoin {
      if (probeKeys.length != buildKeys.length) {
        throw new IllegalArgumentException("A hash join needs pairs of keys, got " + probeKeys.length + " and "
            + buildKeys.length);
      }
    }

    @Override public String toString() {
      return "HashJoin[" + kind + ", probe " + java.util.Arrays.toString(probeKeys) + " = build "
          + java.util.Arrays.toString(buildKeys) + (residual == null ? "" : ", " + residual) + "]";
    }
  }

  /** A sort key: field, direction and where NULLs go. */
  record SortKey(int field, boolean descending, boolean nullsFirst) {}
}
