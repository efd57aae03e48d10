package dev.travertine.calcite.vectorized;

import dev.travertine.calcite.rel.RuleConfig;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.join.HashJoinProbe;
import dev.travertine.exec.join.JoinTable;
import dev.travertine.exec.op.Fragment;
import dev.travertine.exec.op.Step;
import dev.travertine.vector.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A hash join on column vectors: input 0 is the probe side, which streams through the join in the
 * workers of its own scan; input 1 is the build side, a vectorized subtree of its own that runs
 * first and is hashed ({@link Step.HashJoin}). Equi-keys pair up by position; the rest of the
 * condition (the residual) is evaluated on the joined vectors. Output: the probe's fields, then
 * (INNER, LEFT, FULL) the build's. A FULL join's unmatched build rows come after the probe side
 * has ended, so the steps above it run on one thread.
 *
 * <p>{@link #RULE} turns Calcite's INNER, LEFT, RIGHT, FULL, SEMI and ANTI joins with at least one
 * equi-key, or with a build side of at most one row (a scalar subquery: no key, one bucket), into
 * it: as written (the right side built), and for INNER, LEFT (as RIGHT), RIGHT (as LEFT) and FULL also with the sides swapped (the left side built, a projection restoring the field order), SEMI and ANTI
 * as RIGHT_SEMI and RIGHT_ANTI (the left side built, its matched or unmatched rows emitted at the
 * end), so that the planner builds the smaller side. Not a subclass of Calcite's {@code Join} (see {@link VectorizedFilter}).
 */
public final class VectorizedJoin extends AbstractRelNode implements VectorizedRel {
  public static final Rule RULE = RuleConfig.<Rule>of("VectorizedJoinRule",
      b -> b.operand(LogicalJoin.class).anyInputs(), Rule::new).toRule();

  /** Converts a logical join whose keys and residual the engine handles. */
  static final class Rule extends RelRule<RuleConfig<Rule>> {
    Rule(RuleConfig<Rule> config) {
      super(config);
    }

    @Override public void onMatch(RelOptRuleCall call) {
      if (!VectorizedRel.enabled()) {
        return;
      }
      LogicalJoin j = call.rel(0);
      JoinRelType type = j.getJoinType();
      RelNode left = j.getLeft();
      RelNode right = j.getRight();
      if (VectorizedRel.engineTypes(left.getRowType()) == null || VectorizedRel.engineTypes(right.getRowType()) == null
          || VectorizedRel.engineTypes(j.getRowType()) == null) {
        return;
      }
      switch (type) {
        case INNER, LEFT, SEMI, ANTI, FULL -> {
          VectorizedJoin v = create(j, left, right, j.getCondition(), kind(type));
          if (v != null) {
            call.transformTo(v);
          }
        }
        default -> { }
      }
      if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
        // The left side built, the right side probing: the left rows that were (not) matched come
        // out at the end, so the planner can build the smaller side (TPC-H Q4's orders, not the
        // lineitem rows of its EXISTS).
        VectorizedJoin v = create(j, right, left, swapped(j, left, right), type == JoinRelType.SEMI
            ? HashJoinProbe.Kind.RIGHT_SEMI : HashJoinProbe.Kind.RIGHT_ANTI);
        if (v != null) {
          call.transformTo(v);
        }
      }
      if (type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.RIGHT
          || type == JoinRelType.FULL) {
        // The left side built: the join's fields come out right then left, a projection puts them back.
        int nl = left.getRowType().getFieldCount();
        int nr = right.getRowType().getFieldCount();
        VectorizedJoin v = create(j, right, left, swapped(j, left, right), type == JoinRelType.LEFT
            ? HashJoinProbe.Kind.RIGHT : type == JoinRelType.RIGHT ? HashJoinProbe.Kind.LEFT
            : kind(type));
        if (v == null) {
          return;
        }
        RexBuilder rb = j.getCluster().getRexBuilder();
        List<RexNode> projects = new ArrayList<>();
        List<Expr> exprs = new ArrayList<>();
        List<DataType> types = VectorizedRel.engineTypes(v.getRowType());
        for (int i = 0; i < nl + nr; i++) {
          int from = i < nl ? i + nr : i - nl;
          RelDataType t = v.getRowType().getFieldList().get(from).getType();
          projects.add(rb.makeInputRef(t, from));
          exprs.add(new Expr.Column(from, types.get(from), t.isNullable()));
        }
        call.transformTo(new VectorizedProject(j.getCluster(), v.getTraitSet(), v, projects, j.getRowType(), exprs));
      }
    }

    /** The join's condition over the right side's fields, then the left's. */
    private static RexNode swapped(LogicalJoin j, RelNode left, RelNode right) {
      int nl = left.getRowType().getFieldCount();
      int nr = right.getRowType().getFieldCount();
      return j.getCondition().accept(new RexShuttle() {
        @Override public RexNode visitInputRef(RexInputRef ref) {
          int i = ref.getIndex();
          return new RexInputRef(i < nl ? i + nr : i - nl, ref.getType());
        }
      });
    }

    private static HashJoinProbe.Kind kind(JoinRelType t) {
      return switch (t) {
        case INNER -> HashJoinProbe.Kind.INNER;
        case LEFT -> HashJoinProbe.Kind.LEFT;
        case SEMI -> HashJoinProbe.Kind.SEMI;
        case ANTI -> HashJoinProbe.Kind.ANTI;
        case FULL -> HashJoinProbe.Kind.FULL;
        default -> throw new IllegalArgumentException(t.name());
      };
    }

    /**
     * The join of {@code probe} with {@code build} on {@code condition} (over probe's fields then
     * build's), or null when it has no equi-key or a part the engine cannot evaluate.
     */
    private static @Nullable VectorizedJoin create(LogicalJoin j, RelNode probe, RelNode build, RexNode condition,
        HashJoinProbe.Kind kind) {
      List<Integer> probeKeys = new ArrayList<>();
      List<Integer> buildKeys = new ArrayList<>();
      List<Boolean> filterNulls = new ArrayList<>();
      List<RexNode> nonEqui = new ArrayList<>();
      RelOptUtil.splitJoinCondition(probe, build, condition, probeKeys, buildKeys, filterNulls, nonEqui);
      RexNode residual = RexUtil.composeConjunction(j.getCluster().getRexBuilder(), nonEqui, true);
      if (filterNulls.contains(Boolean.FALSE)) {
        return null; // IS NOT DISTINCT FROM (which matches NULLs)
      }
      if (probeKeys.isEmpty() && !singleRow(build)
          && build.getCluster().getMetadataQuery().getRowCount(build) > KEYLESS_BUILD_ROWS) {
        // No equi-key: a build side of at most one row (a scalar subquery, as in TPC-H Q11 and
        // Q22's "> (SELECT avg(...))") or of a few rows (TPC-H Q7's nation x nation under an OR)
        // joins here, every probe row meeting all of it in one bucket, the residual deciding.
        return null;
      }
      List<DataType> pt = VectorizedRel.engineTypes(probe.getRowType());
      List<DataType> bt = VectorizedRel.engineTypes(build.getRowType());
      for (int k = 0; k < probeKeys.size(); k++) {
        if (!JoinTable.compatible(pt.get(probeKeys.get(k)), bt.get(buildKeys.get(k)))) {
          return null;
        }
      }
      RelDataType both = SqlValidatorUtil.deriveJoinRowType(probe.getRowType(), build.getRowType(),
          JoinRelType.INNER, j.getCluster().getTypeFactory(), null, List.of());
      Expr residualExpr = null;
      if (residual != null && !residual.isAlwaysTrue()) {
        residualExpr = RexToExpr.translate(residual, both);
        if (residualExpr == null) {
          return null;
        }
      } else {
        residual = null;
      }
      RelTraitSet traits = j.getTraitSet().replace(CONVENTION);
      RelNode p = convert(probe, probe.getTraitSet().replace(CONVENTION));
      RelNode b = convert(build, build.getTraitSet().replace(CONVENTION));
      return new VectorizedJoin(j.getCluster(), traits, p, b, kind, toArray(probeKeys), toArray(buildKeys),
          residual, residualExpr, j);
    }

    /**
     * Whether r yields at most one row: an aggregate without GROUP BY under projections and
     * filters. Calcite's max-row-count metadata answers "unknown" for the planner's subsets, so
     * a subset is searched for any member that proves it (its members are equivalent).
     */
    private static boolean singleRow(RelNode r) {
      return proven(r, 0, Rule::singleRow);
    }

    private static boolean singleRow(RelNode r, int depth) {
      if (r instanceof org.apache.calcite.rel.core.Aggregate a) {
        return a.getGroupSets().size() == 1 && (a.getGroupSet().isEmpty()
            || proven(a.getInput(), depth + 1, (x, d) -> constants(x, a.getGroupSet().asList())));
      }
      if (r instanceof org.apache.calcite.rel.core.Project || r instanceof org.apache.calcite.rel.core.Filter
          || r instanceof org.apache.calcite.rel.core.Calc) {
        return proven(r.getInput(0), depth + 1, Rule::singleRow);
      }
      Double max = r.getCluster().getMetadataQuery().getMaxRowCount(r);
      return max != null && max <= 1;
    }

    /**
     * Whether {@code test} holds for r or, r being a planner subset, for any of its members (they
     * are equivalent), at most 8 levels down.
     */
    private static boolean proven(RelNode r, int depth, java.util.function.BiPredicate<RelNode, Integer> test) {
      if (depth > 8) {
        return false;
      }
      if (r instanceof org.apache.calcite.plan.volcano.RelSubset subset) {
        for (RelNode member : subset.getRels()) {
          if (test.test(member, depth + 1)) {
            return true;
          }
        }
        return false;
      }
      return test.test(r, depth);
    }

    /** Whether the fields are literals of a projection (EXISTS's {@code GROUP BY true}). */
    private static boolean constants(RelNode r, List<Integer> fields) {
      return r instanceof org.apache.calcite.rel.core.Project p
          && fields.stream().allMatch(f -> p.getProjects().get(f) instanceof org.apache.calcite.rex.RexLiteral);
    }

    private static int[] toArray(List<Integer> xs) {
      return xs.stream().mapToInt(Integer::intValue).toArray();
    }
  }

  /**
   * The most rows a build side without an equi-key may be estimated at: each probe row is paired
   * with all of them (Calcite's nested-loop join does the same, a row at a time).
   */
  static final double KEYLESS_BUILD_ROWS = 10_000;

  private RelNode probe;
  private RelNode build;
  private final HashJoinProbe.Kind kind;
  private final int[] probeKeys;
  private final int[] buildKeys;
  private final @Nullable RexNode residual;
  private final @Nullable Expr residualExpr;
  /** The join this one implements (for its row count). */
  private final LogicalJoin logical;

  VectorizedJoin(RelOptCluster cluster, RelTraitSet traits, RelNode probe, RelNode build, HashJoinProbe.Kind kind,
      int[] probeKeys, int[] buildKeys, @Nullable RexNode residual, @Nullable Expr residualExpr, LogicalJoin logical) {
    super(cluster, traits);
    this.logical = logical;
    this.probe = probe;
    this.build = build;
    this.kind = kind;
    this.probeKeys = probeKeys;
    this.buildKeys = buildKeys;
    this.residual = residual;
    this.residualExpr = residualExpr;
  }

  RelNode probe() {
    return probe;
  }

  RelNode build() {
    return build;
  }

  @Override public List<RelNode> getInputs() {
    return List.of(probe, build);
  }

  @Override public void replaceInput(int ordinalInParent, RelNode rel) {
    if (ordinalInParent == 0) {
      probe = rel;
    } else {
      build = rel;
    }
    recomputeDigest();
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedJoin(getCluster(), traitSet, inputs.get(0), inputs.get(1), kind, probeKeys, buildKeys,
        residual, residualExpr, logical);
  }

  @Override protected RelDataType deriveRowType() {
    return switch (kind) {
      case SEMI, ANTI -> probe.getRowType();
      case RIGHT_SEMI, RIGHT_ANTI -> build.getRowType();
      default -> SqlValidatorUtil.deriveJoinRowType(probe.getRowType(), build.getRowType(),
          kind == HashJoinProbe.Kind.LEFT ? JoinRelType.LEFT : kind == HashJoinProbe.Kind.FULL ? JoinRelType.FULL
              : kind == HashJoinProbe.Kind.RIGHT ? JoinRelType.RIGHT : JoinRelType.INNER, getCluster().getTypeFactory(), null,
          List.of());
    };
  }

  @Override public Step step() {
    throw new UnsupportedOperationException("A join's step needs its build side's fragment");
  }

  /** The engine's join, given the fragment of the build side and its scan source's number. */
  Step.HashJoin step(Fragment buildFragment, int buildSource) {
    return new Step.HashJoin(kind, probeKeys, buildKeys, buildFragment, buildSource, residualExpr);
  }

  /** Calcite's estimate for the join this one implements (the same rows whichever side is built). */
  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return mq.getRowCount(logical);
  }

  /**
   * What the probe side streams and the build side twice over (hashing and copying it), half of it
   * as every vectorized rel: the planner builds the smaller side. The output is not counted, as
   * Calcite's merge join does not count it (its hash join costs the output, n log n of its left
   * input and its right input, and a hundredth of that for a semi-join, so SEMI and ANTI are
   * scaled alike).
   */
  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    double rows = mq.getRowCount(probe) + 2 * mq.getRowCount(build);
    if (probeKeys.length == 0) {
      rows += mq.getRowCount(probe) * mq.getRowCount(build); // every pair
    }
    RelOptCost cost = planner.getCostFactory().makeCost(rows, 0, 0);
    if (kind == HashJoinProbe.Kind.SEMI || kind == HashJoinProbe.Kind.ANTI || kind.buildFieldsOnly()) {
      cost = cost.multiplyBy(0.01);
    }
    return VectorizedRel.cheaper(cost);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    List<String> keys = new ArrayList<>();
    int np = probe.getRowType().getFieldCount();
    for (int k = 0; k < probeKeys.length; k++) {
      keys.add("$" + probeKeys[k] + " = $" + (np + buildKeys[k]));
    }
    return super.explainTerms(pw).input("probe", probe).input("build", build)
        .item("joinType", kind.name().toLowerCase(java.util.Locale.ROOT))
        .item("keys", String.join(", ", keys))
        .itemIf("residual", residual, residual != null);
  }

  @Override public List<RexNode> expressions() {
    return residual == null ? List.of() : List.of(residual);
  }
}
