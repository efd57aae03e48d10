package dev.travertine.calcite.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A SEMI or ANTI join pushed below an INNER join (and a projection of fields between them) to the
 * side whose fields its condition reads: {@code (X ⋈ Y) ⋉ Z} is {@code (X ⋉ Z) ⋈ Y} when the
 * condition reads X and Z only, so the rows Z rules out leave before the inner join (and its
 * build) rather than after. TPC-H Q20's {@code ps_partkey IN (SELECT p_partkey … 'forest%')}
 * came after joining all of partsupp to the year's line items aggregated per part and supplier;
 * below it, it shrinks partsupp to the forest parts, whose keys then filter the line items'
 * scan. Calcite's SemiJoinJoinTransposeRule does this for any join type; an outer join's
 * NULL-extended side cannot take it, so only INNER joins are crossed here.
 */
final class SemiJoinPushdown {
  private SemiJoinPushdown() {}

  static RelNode apply(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        RelNode r = super.visit(other);
        return r instanceof LogicalJoin j ? push(semiOfDistinct(j)) : r;
      }
    });
  }

  /**
   * An INNER join of X with the distinct rows of a relation ({@code Aggregate} with group keys
   * only) on equalities of each of its keys with a field of X: a SEMI join of X with it, its key
   * fields then copied from the X fields they equal (they hold the same values). A list's {@code
   * IN (SELECT …)} comes out of sub-query removal in this form; as a semi join it can move below
   * other joins ({@link #push}). Otherwise {@code j} itself.
   */
  static RelNode semiOfDistinct(LogicalJoin j) {
    if (j.getJoinType() != JoinRelType.INNER || !(j.getRight() instanceof LogicalAggregate agg)
        || !agg.getAggCallList().isEmpty() || agg.getGroupSets().size() != 1) {
      return j;
    }
    int nx = j.getLeft().getRowType().getFieldCount();
    int nk = agg.getRowType().getFieldCount();
    int[] equal = new int[nk];
    Arrays.fill(equal, -1);
    for (RexNode c : RelOptUtil.conjunctions(j.getCondition())) {
      if (!(c instanceof RexCall call) || call.getKind() != SqlKind.EQUALS
          || !(call.getOperands().get(0) instanceof RexInputRef a) || !(call.getOperands().get(1) instanceof RexInputRef b)) {
        return j;
      }
      int x = Math.min(a.getIndex(), b.getIndex());
      int k = Math.max(a.getIndex(), b.getIndex()) - nx;
      if (x >= nx || k < 0 || equal[k] >= 0) {
        return j;
      }
      equal[k] = x;
    }
    for (int x : equal) {
      if (x < 0) {
        return j; // a key no equality ties to X: the inner join may repeat X's rows
      }
    }
    RexBuilder rb = j.getCluster().getRexBuilder();
    LogicalJoin semi = LogicalJoin.create(j.getLeft(), agg, List.of(), j.getCondition(), Set.of(), JoinRelType.SEMI);
    List<RexNode> fields = new ArrayList<>();
    for (int i = 0; i < nx; i++) {
      fields.add(rb.makeInputRef(semi, i));
    }
    List<RelDataTypeField> out = j.getRowType().getFieldList();
    for (int k = 0; k < nk; k++) {
      RexNode x = rb.makeInputRef(semi, equal[k]);
      RelDataType t = out.get(nx + k).getType();
      fields.add(x.getType().equals(t) ? x : rb.makeCast(t, x, true, false));
    }
    return LogicalProject.create(semi, List.of(), fields, j.getRowType().getFieldNames(), Set.of());
  }

  private static RelNode push(RelNode rel) {
    if (!(rel instanceof LogicalJoin semi)) {
      return rel;
    }
    if (semi.getJoinType() != JoinRelType.SEMI && semi.getJoinType() != JoinRelType.ANTI) {
      return semi;
    }
    RelNode left = semi.getLeft();
    LogicalProject project = left instanceof LogicalProject p ? p : null;
    RelNode below = project != null ? project.getInput() : left;
    if (!(below instanceof LogicalJoin inner) || inner.getJoinType() != JoinRelType.INNER) {
      return semi;
    }
    int leftFields = left.getRowType().getFieldCount();
    // the semi join's left fields as fields of the inner join
    int[] field = new int[leftFields];
    for (int i = 0; i < leftFields; i++) {
      if (project == null) {
        field[i] = i;
      } else if (project.getProjects().get(i) instanceof RexInputRef ref) {
        field[i] = ref.getIndex();
      } else {
        field[i] = -1; // an expression: the condition must not read it
      }
    }
    ImmutableBitSet read = ImmutableBitSet.of(RelOptUtil.InputFinder.bits(semi.getCondition()));
    int nx = inner.getLeft().getRowType().getFieldCount();
    boolean anyLeft = false;
    boolean x = true;
    boolean y = true;
    for (int i : read) {
      if (i >= leftFields) {
        continue;
      }
      anyLeft = true;
      if (field[i] < 0) {
        return semi;
      }
      x &= field[i] < nx;
      y &= field[i] >= nx;
    }
    if (!anyLeft || !(x || y)) {
      return semi;
    }
    RelNode side = x ? inner.getLeft() : inner.getRight();
    int shift = x ? 0 : nx;
    int sideFields = side.getRowType().getFieldCount();
    RexNode condition = semi.getCondition().accept(new RexShuttle() {
      @Override public RexNode visitInputRef(RexInputRef ref) {
        int i = ref.getIndex();
        return new RexInputRef(i < leftFields ? field[i] - shift : sideFields + i - leftFields, ref.getType());
      }
    });
    RelNode pushed = push(LogicalJoin.create(side, semi.getRight(), List.of(), condition, Set.of(), semi.getJoinType()));
    RelNode joined = inner.copy(inner.getTraitSet(), inner.getCondition(), x ? pushed : inner.getLeft(),
        x ? inner.getRight() : pushed, JoinRelType.INNER, inner.isSemiJoinDone());
    return project == null ? joined : project.copy(project.getTraitSet(), joined, project.getProjects(),
        project.getRowType());
  }
}
