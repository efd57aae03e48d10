package dev.travertine.calcite.rel;

import dev.travertine.calcite.file.FileScan;
import dev.travertine.calcite.file.LogicalFileScan;
import dev.travertine.calcite.prepare.CollationSafeProjects;
import dev.travertine.calcite.schema.TravertineTable;
import dev.travertine.calcite.vectorized.VectorizedAggregate;
import dev.travertine.calcite.vectorized.VectorizedFilter;
import dev.travertine.calcite.vectorized.VectorizedJoin;
import dev.travertine.calcite.vectorized.VectorizedProject;
import dev.travertine.calcite.vectorized.VectorizedScan;
import dev.travertine.calcite.vectorized.VectorizedSort;
import dev.travertine.calcite.vectorized.VectorizedToEnumerable;
import dev.travertine.vector.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.SemiJoinRule;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/** Planner rules that push filters, projections, limits and key-ordered sorts into the scan. */
@SuppressWarnings("deprecation")
public final class TravertineRules {
  private TravertineRules() {}

  public static final RelOptRule FILTER = RuleConfig.<FilterRule>of("TravertineFilterRule",
      b -> b.operand(LogicalFilter.class).oneInput(s -> s.operand(LogicalTravertineScan.class).noInputs()),
      FilterRule::new).toRule();
  public static final RelOptRule PROJECT = ProjectRule.config(LogicalTravertineScan.class, "TravertineProjectRule").toRule();
  public static final RelOptRule FILE_PROJECT = ProjectRule.config(LogicalFileScan.class, "FileProjectRule").toRule();
  public static final RelOptRule SORT = RuleConfig.<SortRule>of("TravertineSortRule",
      b -> b.operand(LogicalSort.class).oneInput(s -> s.operand(LogicalTravertineScan.class).noInputs()),
      SortRule::new).toRule();
  public static final RelOptRule TO_ENUMERABLE = TravertineTableScan.RULE;
  public static final RelOptRule TABLE_MODIFY = TravertineTableModify.RULE;

  public static final List<RelOptRule> ALL = List.of(FILTER, PROJECT, FILE_PROJECT, SORT, TO_ENUMERABLE,
      TABLE_MODIFY, FileScan.RULE, VectorizedScan.RULE, VectorizedScan.FILE_RULE, VectorizedFilter.RULE, VectorizedProject.RULE, VectorizedAggregate.RULE,
      VectorizedSort.RULE, VectorizedJoin.RULE, VectorizedToEnumerable.RULE);

  public static void register(RelOptPlanner planner) {
    ALL.forEach(planner::addRule);
    // Calcite 1.41's semi-join rules turn "left JOIN Aggregate ON TRUE" into a semi-join with the
    // aggregate's input even when the aggregate has no GROUP BY keys, which is one row over an
    // empty input: the semi-join then drops every row. Sub-query removal builds that join (the
    // COUNT beside "x IN (subquery)" in an OR) and the IN goes once the filter no longer needs it
    // (sqllogictest index/between/1/slt_good_0.test, index/commute/1000/slt_good_1.test).
    planner.removeRule(CoreRules.PROJECT_TO_SEMI_JOIN);
    planner.removeRule(CoreRules.JOIN_TO_SEMI_JOIN);
    planner.addRule(PROJECT_TO_SEMI_JOIN);
    planner.addRule(JOIN_TO_SEMI_JOIN);
  }

  /** Calcite's rules, each rebuilt once to build with {@link CollationSafeProjects}. */
  private static final Map<RelOptRule, RelOptRule> SAFE_BUILDERS = new ConcurrentHashMap<>();

  /**
   * The rule building its projections with {@link CollationSafeProjects#BUILDER}. Calcite's rules
   * simplify what they build (a CASE whose only matching branch held an aggregate becomes NULL,
   * leaving {@code 93 / NULL}), and a projection of NULL arithmetic that is not folded fails in
   * Calcite's collation derivation ("not a literal"). A rule with a builder of its own, a
   * converter, or a subclass its configuration would not rebuild is returned as it is.
   */
  public static RelOptRule withSafeBuilder(RelOptRule rule) {
    return SAFE_BUILDERS.computeIfAbsent(rule, TravertineRules::rebuild);
  }

  private static RelOptRule rebuild(RelOptRule rule) {
    if (!(rule instanceof RelRule<?> r) || rule instanceof ConverterRule
        || r.config.relBuilderFactory() != RelFactories.LOGICAL_BUILDER) {
      return rule;
    }
    RelOptRule rebuilt = r.config.withRelBuilderFactory(CollationSafeProjects.BUILDER).toRule();
    return rebuilt.getClass() == rule.getClass() ? rebuilt : rule;
  }

  /** Calcite's PROJECT_TO_SEMI_JOIN, not for an inner join with a whole-input aggregate. */
  public static final RelOptRule PROJECT_TO_SEMI_JOIN = new SemiJoinRule.ProjectToSemiJoinRule(
      SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.DEFAULT) {
    @Override public boolean matches(RelOptRuleCall call) {
      return semiJoinIsSound(call.rel(1), call.rel(3));
    }
  };

  /** Calcite's JOIN_TO_SEMI_JOIN, not for an inner join with a whole-input aggregate. */
  public static final RelOptRule JOIN_TO_SEMI_JOIN = new SemiJoinRule.JoinToSemiJoinRule(
      SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.DEFAULT) {
    @Override public boolean matches(RelOptRuleCall call) {
      return semiJoinIsSound(call.rel(0), call.rel(2));
    }
  };

  /**
   * A semi-join with the aggregate's input keeps the rows an inner join with the aggregate keeps
   * only when the aggregate groups: without keys it is one row whatever its input holds. (A left
   * join with it is the left input either way, which the rule produces.)
   */
  private static boolean semiJoinIsSound(Join join, Aggregate aggregate) {
    return aggregate.getGroupCount() > 0 || join.getJoinType() != JoinRelType.INNER;
  }

  /** Filter on scan: the translatable conjuncts go into the scan; the rest stays a Filter. */
  static final class FilterRule extends RelRule<RuleConfig<FilterRule>> {
    FilterRule(RuleConfig<FilterRule> config) {
      super(config);
    }

    @Override public void onMatch(RelOptRuleCall call) {
      LogicalFilter filter = call.rel(0);
      LogicalTravertineScan scan = call.rel(1);
      if (scan.filter != null || scan.limit >= 0 || scan.ordered) {
        return;
      }
      RexToPredicate tr = new RexToPredicate(scan.travertineTable.definition().schema(), scan.projection,
          filter.getCluster().getRexBuilder());
      List<Predicate> pushed = new ArrayList<>();
      List<RexNode> rest = new ArrayList<>();
      for (RexNode c : RelOptUtil.conjunctions(filter.getCondition())) {
        Predicate p = tr.translate(c);
        if (p == null) {
          rest.add(c);
        } else {
          pushed.add(p);
        }
      }
      if (pushed.isEmpty()) {
        return;
      }
      Predicate p = pushed.size() == 1 ? pushed.get(0) : new Predicate.And(pushed);
      RelNode out = scan.withFilter(p);
      if (!rest.isEmpty()) {
        out = LogicalFilter.create(out, RexUtil.composeConjunction(filter.getCluster().getRexBuilder(), rest));
      }
      call.transformTo(out);
    }
  }

  /** Project on scan: the scan reads only the columns used; a Project remains for expressions. */
  static final class ProjectRule extends RelRule<RuleConfig<ProjectRule>> {
    ProjectRule(RuleConfig<ProjectRule> config) {
      super(config);
    }

    static RuleConfig<ProjectRule> config(Class<? extends org.apache.calcite.rel.core.TableScan> scanClass, String name) {
      return RuleConfig.of(name, b -> b.operand(LogicalProject.class).oneInput(s -> s.operand(scanClass).noInputs()),
          ProjectRule::new);
    }

    @Override public void onMatch(RelOptRuleCall call) {
      LogicalProject project = call.rel(0);
      ProjectableScan scan = (ProjectableScan) call.rel(1);
      int[] projection = scan.projection();
      List<RexNode> exprs = project.getProjects();
      boolean allRefs = exprs.stream().allMatch(e -> e instanceof RexInputRef);
      if (allRefs) {
        int[] p = new int[exprs.size()];
        java.util.BitSet seen = new java.util.BitSet();
        boolean dup = false;
        for (int i = 0; i < p.length; i++) {
          int idx = ((RexInputRef) exprs.get(i)).getIndex();
          p[i] = projection[idx];
          dup |= seen.get(idx);
          seen.set(idx);
        }
        if (!dup && !scan.ordered()) {
          call.transformTo(scan.withProjection(p));
          return;
        }
      }
      ImmutableBitSet used = RelOptUtil.InputFinder.bits(exprs, null);
      if (used.cardinality() >= projection.length || scan.ordered()) {
        return;
      }
      int[] p = new int[used.cardinality()];
      int[] remap = new int[projection.length];
      int k = 0;
      for (int i : used) {
        remap[i] = k;
        p[k++] = projection[i];
      }
      RelNode narrowed = scan.withProjection(p);
      List<RexNode> newExprs = new ArrayList<>();
      RexShuttle shuttle = new RexShuttle() {
        @Override public RexNode visitInputRef(RexInputRef ref) {
          return new RexInputRef(remap[ref.getIndex()], ref.getType());
        }
      };
      for (RexNode e : exprs) {
        newExprs.add(e.accept(shuttle));
      }
      call.transformTo(LogicalProject.create(narrowed, project.getHints(), newExprs, project.getRowType()));
    }
  }

  /** Sort/limit on scan: LIMIT goes into the scan; ORDER BY a prefix of the sort key reads in order. */
  static final class SortRule extends RelRule<RuleConfig<SortRule>> {
    SortRule(RuleConfig<SortRule> config) {
      super(config);
    }

    @Override public void onMatch(RelOptRuleCall call) {
      LogicalSort sort = call.rel(0);
      LogicalTravertineScan scan = call.rel(1);
      if (scan.limit >= 0 || scan.ordered) {
        return;
      }
      long offset = literal(sort.offset, 0);
      long fetch = literal(sort.fetch, -1);
      if ((sort.offset != null && offset < 0) || (sort.fetch != null && fetch < 0)) {
        return; // dynamic parameters
      }
      long limit = fetch < 0 ? -1 : offset + fetch;
      RelCollation collation = sort.getCollation();
      if (collation.getFieldCollations().isEmpty()) {
        if (limit < 0) {
          return;
        }
        RelNode out = scan.withLimit(limit);
        if (offset > 0) {
          out = LogicalSort.create(out, RelCollations.EMPTY, sort.offset, sort.fetch);
        }
        call.transformTo(out);
        return;
      }
      int[] key = scan.travertineTable.definition().sortKeyIndexes();
      List<RelFieldCollation> fcs = collation.getFieldCollations();
      if (fcs.size() > key.length) {
        return;
      }
      for (int i = 0; i < fcs.size(); i++) {
        RelFieldCollation fc = fcs.get(i);
        if (fc.getDirection() != RelFieldCollation.Direction.ASCENDING
            || fc.nullDirection != RelFieldCollation.NullDirection.LAST
            || scan.projection[fc.getFieldIndex()] != key[i]) {
          return;
        }
      }
      LogicalTravertineScan ordered = scan.withOrder(collation, limit);
      if (offset > 0) {
        call.transformTo(LogicalSort.create(ordered, collation, sort.offset, sort.fetch));
      } else {
        call.transformTo(ordered);
      }
    }

    private static long literal(RexNode n, long dflt) {
      if (n == null) {
        return dflt;
      }
      if (n instanceof RexLiteral lit) {
        Long v = lit.getValueAs(Long.class);
        return v == null ? -1 : v;
      }
      return -1;
    }
  }

  /** Whether a rule's input is a Travertine table modification target. */
  static boolean isTravertine(TableModify modify) {
    return modify.getTable().unwrap(TravertineTable.class) != null;
  }

  /** ConverterRule config for NONE LogicalTableModify on our tables. */
  static ConverterRule.Config modifyConfig() {
    return ConverterRule.Config.INSTANCE
        .withConversion(LogicalTableModify.class, TravertineRules::isTravertine, Convention.NONE,
            EnumerableConvention.INSTANCE, "TravertineTableModifyRule");
  }
}
