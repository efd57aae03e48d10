package dev.travertine.calcite.vectorized;

import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.op.Step;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * SELECT expressions on column vectors: each expression evaluated a batch at a time. Not a
 * subclass of Calcite's {@code Project} (see {@link VectorizedFilter}).
 */
public final class VectorizedProject extends VectorizedSingleRel {
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalProject.class, p -> VectorizedRel.enabled() && !p.containsOver(),
          Convention.NONE, CONVENTION, "VectorizedProjectRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts a projection whose every expression the engine evaluates. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      LogicalProject p = (LogicalProject) rel;
      List<Expr> exprs = translate(p.getProjects(), p.getInput(), p.getRowType());
      if (exprs == null) {
        return null;
      }
      RelNode in = convert(p.getInput(), p.getInput().getTraitSet().replace(CONVENTION));
      return new VectorizedProject(p.getCluster(), p.getTraitSet().replace(CONVENTION), in, p.getProjects(),
          p.getRowType(), exprs);
    }
  }

  static @Nullable List<Expr> translate(List<RexNode> projects, RelNode input, RelDataType rowType) {
    if (VectorizedRel.engineTypes(rowType) == null) {
      return null;
    }
    List<Expr> out = new ArrayList<>();
    for (RexNode r : projects) {
      Expr e = VectorizedTranslation.expr(r, input);
      if (e == null) {
        return null;
      }
      out.add(e);
    }
    return out;
  }

  private final List<RexNode> projects;
  private final List<Expr> exprs;

  VectorizedProject(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<RexNode> projects,
      RelDataType rowType, List<Expr> exprs) {
    super(cluster, traits, input);
    this.projects = List.copyOf(projects);
    this.exprs = exprs;
    this.rowType = rowType;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedProject(getCluster(), traitSet, sole(inputs), projects, rowType, exprs);
  }

  @Override public Step step() {
    return new Step.Project(exprs);
  }

  /**
   * Half of Calcite's Project cost; nearly nothing for bare field references (vectors passed on
   * as they are), such as the projection restoring the field order over a join whose sides were
   * swapped: costed by the join's output, whose estimate is often far too high, it kept the
   * planner from building the smaller side.
   */
  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    if (projects.stream().allMatch(p -> p instanceof org.apache.calcite.rex.RexInputRef)) {
      return planner.getCostFactory().makeTinyCost();
    }
    double rows = mq.getRowCount(getInput());
    return VectorizedRel.cheaper(planner.getCostFactory().makeCost(rows, rows * projects.size(), 0));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    super.explainTerms(pw);
    List<RelDataTypeField> fields = rowType.getFieldList();
    for (int i = 0; i < projects.size(); i++) {
      pw.item(fields.get(i).getName(), projects.get(i));
    }
    return pw;
  }

  @Override public List<RexNode> expressions() {
    return projects;
  }
}
