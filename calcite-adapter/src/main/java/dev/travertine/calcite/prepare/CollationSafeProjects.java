package dev.travertine.calcite.prepare;

import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The projections SQL-to-rel conversion builds. Calcite 1.41 derives a new projection's
 * collation from its expressions' monotonicity and asserts that a constant operand is a
 * literal; arithmetic on a NULL that only simplifies later ({@code CASE … THEN NULL END / 34},
 * {@code NULL / -col2} over a sorted table) is constant without being one ("not a literal:
 * /(null, 34)"). NULL arithmetic is folded first ({@link NullArithmetic}), and a projection still
 * constant without a literal is built without a derived collation. The planner's rules build
 * with it too: their builders simplify (a CASE whose only taken branch went with an aggregate
 * becomes NULL, leaving {@code 93 / NULL}) and then make projections.
 */
public final class CollationSafeProjects implements RelFactories.ProjectFactory {
  public static final RelBuilderFactory BUILDER = RelBuilder.proto(Contexts.of(new CollationSafeProjects()));

  private CollationSafeProjects() {
  }

  @Override public RelNode createProject(RelNode input, List<RelHint> hints,
      List<? extends RexNode> exprs, @Nullable List<? extends @Nullable String> fieldNames,
      Set<CorrelationId> variablesSet) {
    List<RexNode> folded = NullArithmetic.fold(input.getCluster().getRexBuilder(), exprs);
    try {
      return LogicalProject.create(input, hints, folded, fieldNames, variablesSet);
    } catch (AssertionError e) {
      if (e.getMessage() == null || !e.getMessage().startsWith("not a literal")) {
        throw e;
      }
      RelOptCluster cluster = input.getCluster();
      RelDataType rowType = RexUtil.createStructType(cluster.getTypeFactory(), folded, fieldNames,
          SqlValidatorUtil.F_SUGGESTER);
      return new LogicalProject(cluster, cluster.traitSetOf(Convention.NONE), hints, input, folded, rowType,
          variablesSet);
    }
  }
}
