package dev.travertine.calcite.plan;

import dev.travertine.calcite.codegen.GuardedRoot;
import dev.travertine.calcite.rel.TravertineRules;
import dev.travertine.calcite.vectorized.VectorizedRel;
import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * The planning program: Calcite's standard sequence (sub-queries, decorrelation, field trimming,
 * cost-based planning, calc) except that from {@link #HEURISTIC_JOIN_COUNT} inner joins up the join
 * order is chosen heuristically before cost-based planning (joins gathered into a MultiJoin and
 * ordered greedily by {@link JoinOrder} on estimates from the tables' statistics, once;
 * LoptOptimizeJoinRule took 0.4 s per query there) and the exhaustive join-reordering rules are taken out of the cost-based
 * planner. Arithmetic and comparisons on NULL literals were folded before ({@link dev.travertine.calcite.prepare.NullArithmetic},
 * from {@code TravertinePrepare}'s field trimming).
 * Sub-query removal, decorrelation and the second field trimming run only for trees that have
 * sub-queries or correlations (or 2+ joins, which Calcite's prepare leaves untrimmed).
 * Exhaustive reordering of 8 tables keeps Volcano busy for minutes (sqllogictest's select5.test).
 */
public final class TravertineProgram {
  private TravertineProgram() {}

  /** Joins in the tree from which the order is heuristic (4 tables). */
  static final int HEURISTIC_JOIN_COUNT = 3;

  /**
   * Joins in the tree up to which the vectorized convention is planned (TPC-H's largest query
   * joins 8 tables); a tree with more keeps Calcite's operators.
   */
  static final int MAX_VECTORIZED_JOINS = 8;

  private static final List<RelOptRule> EXHAUSTIVE_JOIN_RULES = List.of(CoreRules.JOIN_COMMUTE,
      CoreRules.JOIN_ASSOCIATE, JoinPushThroughJoinRule.LEFT, JoinPushThroughJoinRule.RIGHT);

  public static final Program INSTANCE = create(TravertineMetadata.PROVIDER);

  private static Program create(RelMetadataProvider md) {
    Program gather = Programs.of(new HepProgramBuilder()
        .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
        .build(), false, md);
    Program filterIntoJoin = Programs.of(new HepProgramBuilder()
        .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
        .build(), false, md);
    Program costBased = (planner, rel, traits, materializations, lattices) -> {
      RelNode input = rel;
      int joins = RelOptUtil.countJoins(rel);
      if (joins > 0 && (joins < HEURISTIC_JOIN_COUNT || !reorderableJoins(rel))) {
        // the WHERE clause's join conditions into the joins before Volcano starts from the tree:
        // the plan a set of equivalent plans starts from is what the planner estimates the set by
        input = filterIntoJoin.run(planner, rel, traits, materializations, lattices);
      }
      if (joins >= HEURISTIC_JOIN_COUNT && reorderableJoins(rel)) {
        RelNode ordered = JoinOrder.apply(gather.run(planner, rel, traits, materializations, lattices));
        // The bushy rule leaves a MultiJoin with outer joins alone, and nothing implements a
        // MultiJoin: then the joins stay in the order the query wrote them.
        input = containsMultiJoin(ordered) ? rel : ordered;
        EXHAUSTIVE_JOIN_RULES.forEach(planner::removeRule);
      }
      boolean vectorized = VectorizedRel.enabled();
      VectorizedRel.ENABLED.set(vectorized && RelOptUtil.countJoins(input) <= MAX_VECTORIZED_JOINS);
      if (VectorizedRel.enabled()) {
        input = AggregateRewrites.apply(input);
      }
      try {
        return volcano(planner, input, traits, materializations, lattices);
      } finally {
        VectorizedRel.ENABLED.set(vectorized);
      }
    };
    Program subQuery = Programs.subQuery(md);
    Program semiJoin = Programs.of(new HepProgramBuilder()
        .addRuleInstance(TravertineRules.PROJECT_TO_SEMI_JOIN)
        .addRuleInstance(TravertineRules.JOIN_TO_SEMI_JOIN)
        .build(), false, md);
    Program decorrelate = Programs.decorrelate();
    Program measure = Programs.measure(md);
    Program trim = Programs.trim();
    Program calc = Programs.calc(md);
    return (planner, rel, traits, materializations, lattices) -> {
      rel.getCluster().setMetadataProvider(md);
      rel.getCluster().invalidateMetadataQuery();
      // Sub-query removal and decorrelation add fields that trimming removes again. Without
      // them, and with fewer than 2 joins, Calcite's prepare has trimmed the tree already.
      boolean rewrites = hasSubQueryOrCorrelate(rel);
      boolean semiJoins = false;
      if (rewrites) {
        RelNode joined = ExistsToJoin.apply(rel);
        semiJoins = joined != rel;
        rel = joined;
        rewrites = hasSubQueryOrCorrelate(rel);
      }
      if (rewrites) {
        rel = subQuery.run(planner, rel, traits, materializations, lattices);
        rel = decorrelate.run(planner, rel, traits, materializations, lattices);
      }
      rel = measure.run(planner, rel, traits, materializations, lattices);
      if (rewrites || semiJoins || RelOptUtil.countJoins(rel) >= 2) {
        rel = trim.run(planner, rel, traits, materializations, lattices);
      }
      if (rewrites || semiJoins) {
        // sub-queries' joins with the distinct keys of a list as semi joins, pushed towards the
        // scans they filter before the join order is chosen
        rel = SemiJoinPushdown.apply(semiJoin.run(planner, rel, traits, materializations, lattices));
      }
      if (RelOptUtil.countJoins(rel) > 0) {
        rel = OrConditions.apply(rel);
      }
      rel = costBased.run(planner, rel, traits, materializations, lattices);
      return GuardedRoot.wrap(calc.run(planner, rel, traits, materializations, lattices));
    };
  }

  /** True when the tree holds a sub-query expression or a correlation. */
  static boolean hasSubQueryOrCorrelate(RelNode rel) {
    if (rel instanceof Correlate) {
      return true;
    }
    boolean[] found = new boolean[1];
    rel.accept(new RexShuttle() {
      @Override public RexNode visitSubQuery(RexSubQuery subQuery) {
        found[0] = true;
        return subQuery;
      }
    });
    if (found[0]) {
      return true;
    }
    for (RelNode in : rel.getInputs()) {
      if (hasSubQueryOrCorrelate(in)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when every join is an inner join, or a semi or anti join (which stays where it is, the
   * inner joins under and over it ordered apart): what the heuristic reorders safely.
   */
  private static boolean reorderableJoins(RelNode rel) {
    if (rel instanceof Join j && j.getJoinType() != JoinRelType.INNER && j.getJoinType() != JoinRelType.SEMI
        && j.getJoinType() != JoinRelType.ANTI) {
      return false;
    }
    if (rel instanceof Correlate) {
      return false;
    }
    for (RelNode in : rel.getInputs()) {
      if (!reorderableJoins(in)) {
        return false;
      }
    }
    return true;
  }

  private static boolean containsMultiJoin(RelNode rel) {
    if (rel instanceof MultiJoin) {
      return true;
    }
    for (RelNode in : rel.getInputs()) {
      if (containsMultiJoin(in)) {
        return true;
      }
    }
    return false;
  }

  /** As the middle step of Calcite's {@code Programs.standard()}. */
  private static RelNode volcano(RelOptPlanner planner, RelNode rel, RelTraitSet traits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    materializations.forEach(planner::addMaterialization);
    lattices.forEach(planner::addLattice);
    planner.setRoot(rel);
    RelNode root = rel.getTraitSet().equals(traits) ? rel : planner.changeTraits(rel, traits);
    planner.setRoot(root);
    return planner.chooseDelegate().findBestExp();
  }
}
