package dev.travertine.calcite.plan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * The order of a tree of inner joins, gathered into a {@link MultiJoin}: greedy, as DuckDB's and
 * others' fallback orderer (GOO): of the pairs of inputs (or joins built so far) that a condition
 * connects, the one whose join is estimated smallest is joined first, until one tree is left. A
 * join's estimate is the product of its sides' rows divided, for each equality between them, by
 * the larger of the two columns' distinct counts ({@link TravertineMetadata#joinRows}: each bounded
 * by its side's rows and by the table's statistics, so that {@code c_nationkey = s_nationkey} is
 * known to match 1/25 of pairs and {@code o_custkey = c_custkey} 1/150,000). Calcite's own
 * bushy orderer guesses 0.15 for every equality, which joined TPC-H Q5's customers to suppliers
 * by nation (12 M rows) before any key join. Each join is written with its larger side left: the
 * planner then builds whichever side costs less.
 */
final class JoinOrder {
  private JoinOrder() {}

  /** Every MultiJoin of the tree replaced by its ordered joins (and a projection restoring its fields). */
  static RelNode apply(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        RelNode r = super.visit(other);
        return r instanceof MultiJoin m ? order(m) : r;
      }
    });
  }

  /** A side being built: its inputs, its tree, the MultiJoin fields it outputs in order, its rows. */
  private record Part(BitSet inputs, RelNode rel, int[] fields, double rows) {}

  private static RelNode order(MultiJoin m) {
    if (m.isFullOuterJoin() || m.getProjFields().stream().anyMatch(Objects::nonNull)
        || m.getJoinTypes().stream().anyMatch(t -> t != JoinRelType.INNER)) {
      return m;
    }
    RelMetadataQuery mq = m.getCluster().getMetadataQuery();
    RexBuilder rb = m.getCluster().getRexBuilder();
    List<RelNode> inputs = m.getInputs();
    int n = inputs.size();
    int[] offset = new int[n + 1];
    for (int i = 0; i < n; i++) {
      offset[i + 1] = offset[i] + inputs.get(i).getRowType().getFieldCount();
    }
    int[] owner = new int[offset[n]];
    double[] distinct = new double[offset[n]];
    List<RexNode> conds = new ArrayList<>(RelOptUtil.conjunctions(m.getJoinFilter()));
    List<BitSet> condInputs = new ArrayList<>();
    for (RexNode c : conds) {
      BitSet in = new BitSet();
      for (int f : RelOptUtil.InputFinder.bits(c)) {
        in.set(inputOf(offset, f));
      }
      condInputs.add(in);
    }
    List<Part> parts = new ArrayList<>();
    boolean[] used = new boolean[conds.size()];
    for (int i = 0; i < n; i++) {
      RelNode in = inputs.get(i);
      int[] fields = new int[offset[i + 1] - offset[i]];
      List<RexNode> own = new ArrayList<>();
      for (int k = 0; k < conds.size(); k++) {
        if (!used[k] && condInputs.get(k).cardinality() <= 1 && (condInputs.get(k).isEmpty() || condInputs.get(k).get(i))) {
          for (int f = 0; f < fields.length; f++) {
            fields[f] = offset[i] + f;
          }
          own.add(remap(conds.get(k), fields));
          used[k] = true;
        }
      }
      if (!own.isEmpty()) {
        in = LogicalFilter.create(in, RexUtil.composeConjunction(rb, own));
      }
      double rows = Objects.requireNonNullElse(mq.getRowCount(in), 1e6);
      for (int f = 0; f < fields.length; f++) {
        fields[f] = offset[i] + f;
        owner[offset[i] + f] = i;
        distinct[offset[i] + f] = TravertineMetadata.distinct(mq, in, f);
      }
      BitSet only = new BitSet();
      only.set(i);
      parts.add(new Part(only, in, fields, rows));
    }
    while (parts.size() > 1) {
      int bestA = -1;
      int bestB = -1;
      double best = Double.POSITIVE_INFINITY;
      for (int a = 0; a < parts.size(); a++) {
        for (int b = a + 1; b < parts.size(); b++) {
          List<Integer> connecting = connecting(parts.get(a), parts.get(b), condInputs, used);
          if (connecting.isEmpty()) {
            continue;
          }
          double rows = estimate(parts.get(a), parts.get(b), connecting, conds, owner, distinct);
          if (rows < best) {
            best = rows;
            bestA = a;
            bestB = b;
          }
        }
      }
      if (bestA < 0) { // nothing connects: the two smallest sides, crossed
        List<Part> bySize = new ArrayList<>(parts);
        bySize.sort((x, y) -> Double.compare(x.rows(), y.rows()));
        bestA = parts.indexOf(bySize.get(0));
        bestB = parts.indexOf(bySize.get(1));
        best = bySize.get(0).rows() * bySize.get(1).rows();
      }
      Part a = parts.get(bestA);
      Part b = parts.get(bestB);
      Part left = a.rows() >= b.rows() ? a : b;
      Part right = left == a ? b : a;
      int[] fields = new int[left.fields().length + right.fields().length];
      System.arraycopy(left.fields(), 0, fields, 0, left.fields().length);
      System.arraycopy(right.fields(), 0, fields, left.fields().length, right.fields().length);
      BitSet union = (BitSet) left.inputs().clone();
      union.or(right.inputs());
      List<RexNode> on = new ArrayList<>();
      for (int k = 0; k < conds.size(); k++) {
        BitSet ci = condInputs.get(k);
        if (!used[k] && contains(union, ci)) {
          used[k] = true;
          on.add(remap(conds.get(k), fields));
        }
      }
      RelNode join = LogicalJoin.create(left.rel(), right.rel(), List.of(), RexUtil.composeConjunction(rb, on),
          java.util.Set.of(), JoinRelType.INNER);
      parts.remove(Math.max(bestA, bestB));
      parts.remove(Math.min(bestA, bestB));
      parts.add(new Part(union, join, fields, Math.max(1, best)));
    }
    Part all = parts.get(0);
    int[] position = new int[offset[n]];
    for (int p = 0; p < all.fields().length; p++) {
      position[all.fields()[p]] = p;
    }
    List<RexNode> exprs = new ArrayList<>();
    for (int f = 0; f < offset[n]; f++) {
      exprs.add(rb.makeInputRef(all.rel(), position[f]));
    }
    RelNode out = LogicalProject.create(all.rel(), List.of(), exprs, m.getRowType().getFieldNames(),
        java.util.Set.of());
    if (m.getPostJoinFilter() != null) {
      out = LogicalFilter.create(out, m.getPostJoinFilter());
    }
    return out;
  }

  private static int inputOf(int[] offset, int field) {
    int i = 0;
    while (offset[i + 1] <= field) {
      i++;
    }
    return i;
  }

  private static boolean contains(BitSet outer, BitSet inner) {
    BitSet rest = (BitSet) inner.clone();
    rest.andNot(outer);
    return rest.isEmpty();
  }

  /** The unused conditions over inputs of {@code a} and {@code b} only, touching both. */
  private static List<Integer> connecting(Part a, Part b, List<BitSet> condInputs, boolean[] used) {
    BitSet union = (BitSet) a.inputs().clone();
    union.or(b.inputs());
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < condInputs.size(); k++) {
      BitSet ci = condInputs.get(k);
      if (!used[k] && contains(union, ci) && ci.intersects(a.inputs()) && ci.intersects(b.inputs())) {
        out.add(k);
      }
    }
    return out;
  }

  /** {@link TravertineMetadata#joinRows} of the two sides on the connecting conditions. */
  private static double estimate(Part a, Part b, List<Integer> connecting, List<RexNode> conds, int[] owner,
      double[] distinct) {
    List<double[]> pairs = new ArrayList<>();
    int others = 0;
    for (int k : connecting) {
      RexNode c = conds.get(k);
      int l = c instanceof RexCall call && c.getKind() == SqlKind.EQUALS ? field(call.getOperands().get(0)) : -1;
      int r = l >= 0 ? field(((RexCall) c).getOperands().get(1)) : -1;
      if (l >= 0 && r >= 0 && a.inputs().get(owner[l]) != a.inputs().get(owner[r])) {
        boolean lInA = a.inputs().get(owner[l]);
        pairs.add(new double[] {distinct[lInA ? l : r], distinct[lInA ? r : l]});
      } else {
        others++;
      }
    }
    double[] ad = pairs.stream().mapToDouble(p -> p[0]).toArray();
    double[] bd = pairs.stream().mapToDouble(p -> p[1]).toArray();
    return TravertineMetadata.joinRows(a.rows(), b.rows(), ad, bd, Math.min(others, 1));
  }

  /** The field a (possibly cast) bare reference reads, or -1. */
  private static int field(RexNode e) {
    RexNode x = e.getKind() == SqlKind.CAST ? ((RexCall) e).getOperands().get(0) : e;
    return x instanceof RexInputRef r ? r.getIndex() : -1;
  }

  /** {@code c} over the MultiJoin's fields, rewritten over {@code fields} (the MultiJoin field of each position). */
  private static RexNode remap(RexNode c, int[] fields) {
    int max = 0;
    for (int f : fields) {
      max = Math.max(max, f + 1);
    }
    int[] position = new int[Math.max(max, 1)];
    java.util.Arrays.fill(position, -1);
    for (int p = 0; p < fields.length; p++) {
      position[fields[p]] = p;
    }
    return c.accept(new RexShuttle() {
      @Override public RexNode visitInputRef(RexInputRef ref) {
        int p = position[ref.getIndex()];
        if (p < 0) {
          throw new IllegalStateException("Join condition field " + ref.getIndex() + " is not on either side");
        }
        return new RexInputRef(p, ref.getType());
      }
    });
  }
}
