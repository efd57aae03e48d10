package dev.travertine.calcite.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * ORs in the filters and join conditions of a tree with joins, made useful to the planner:
 *
 * <ul>
 * <li>the conjuncts common to every branch are pulled out ({@code (a = b AND x) OR (a = b AND y)}
 *     becomes {@code a = b AND (x OR y)}), so a join key written inside each branch becomes the
 *     join's equi-key (TPC-H Q19) instead of leaving a nested-loop join;</li>
 * <li>for each field that every branch restricts on its own, the OR of those restrictions is
 *     added beside the OR, implied by it: {@code (n1.name = 'FRANCE' AND n2.name = 'GERMANY') OR
 *     (n1.name = 'GERMANY' AND n2.name = 'FRANCE')} also gives {@code n1.name IN ('FRANCE',
 *     'GERMANY')} and the same of {@code n2.name} (TPC-H Q7; Q19's quantities and sizes), which
 *     filter pushdown takes to the scans, where they prune granules and shrink join inputs and
 *     their estimates. The OR itself stays where it was. (DuckDB derives the same filters.)</li>
 * </ul>
 *
 * Only filters and inner joins' conditions: an outer join's condition restricts nothing about
 * its preserved side.
 */
final class OrConditions {
  private OrConditions() {}

  static RelNode apply(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        RelNode r = super.visit(other);
        if (r instanceof Filter f && hasOr(f.getCondition())) {
          RexNode c = rewrite(f.getCluster().getRexBuilder(), f.getCondition(), true);
          return c.equals(f.getCondition()) ? r : f.copy(f.getTraitSet(), f.getInput(), c);
        }
        if (r instanceof Join j && hasOr(j.getCondition())) {
          RexNode c = rewrite(j.getCluster().getRexBuilder(), j.getCondition(), j.getJoinType() == JoinRelType.INNER);
          return c.equals(j.getCondition()) ? r
              : j.copy(j.getTraitSet(), c, j.getLeft(), j.getRight(), j.getJoinType(), j.isSemiJoinDone());
        }
        return r;
      }
    });
  }

  private static boolean hasOr(RexNode c) {
    return RexUtil.find(SqlKind.OR).contains(c);
  }

  /** The condition with common factors pulled out of its ORs and, when {@code derive}, per-field implications added. */
  static RexNode rewrite(RexBuilder rb, RexNode condition, boolean derive) {
    RexNode c = RexUtil.pullFactors(rb, condition);
    if (!derive) {
      return c;
    }
    List<RexNode> conjuncts = RelOptUtil.conjunctions(c);
    List<RexNode> derived = new ArrayList<>();
    for (RexNode or : conjuncts) {
      if (or.getKind() == SqlKind.OR) {
        derived.addAll(implied(rb, or));
      }
    }
    derived.removeAll(conjuncts);
    if (derived.isEmpty()) {
      return c;
    }
    List<RexNode> all = new ArrayList<>(conjuncts);
    all.addAll(derived);
    return RexUtil.composeConjunction(rb, all);
  }

  /**
   * For each field of {@code or} that every branch restricts with conjuncts of that field alone,
   * the OR over the branches of those conjuncts; nothing when the OR reads one field only (the
   * implication would be the OR itself).
   */
  private static List<RexNode> implied(RexBuilder rb, RexNode or) {
    List<RexNode> branches = RelOptUtil.disjunctions(or);
    ImmutableBitSet fields = RelOptUtil.InputFinder.bits(or);
    List<RexNode> out = new ArrayList<>();
    if (fields.cardinality() < 2 || !RexUtil.isDeterministic(or)) {
      return out;
    }
    for (int field : fields) {
      List<RexNode> parts = new ArrayList<>();
      for (RexNode branch : branches) {
        List<RexNode> own = new ArrayList<>();
        for (RexNode k : RelOptUtil.conjunctions(branch)) {
          ImmutableBitSet b = RelOptUtil.InputFinder.bits(k);
          if (b.cardinality() == 1 && b.nth(0) == field && !RexUtil.containsCorrelation(k)) {
            own.add(k);
          }
        }
        if (own.isEmpty()) {
          parts = null;
          break;
        }
        parts.add(RexUtil.composeConjunction(rb, own));
      }
      if (parts != null) {
        out.add(RexUtil.composeDisjunction(rb, parts));
      }
    }
    return out;
  }
}
