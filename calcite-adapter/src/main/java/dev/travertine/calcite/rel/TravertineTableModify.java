package dev.travertine.calcite.rel;

import dev.travertine.calcite.runtime.TravertineRuntime;
import dev.travertine.calcite.schema.TravertineTable;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * INSERT into a Travertine table as Enumerable code: the input rows stream into one
 * {@link dev.travertine.mergetree.Inserter} and the statement returns the count. UPDATE and DELETE
 * never get here: they are recorded as mutations (see {@link dev.travertine.calcite.dml.MutationStatement}).
 */
public final class TravertineTableModify extends TableModify implements EnumerableRel {

  static final ConverterRule RULE = TravertineRules.modifyConfig().withRuleFactory(Rule::new).toRule(Rule.class);

  /** Converts LogicalTableModify on our tables. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      TableModify m = (TableModify) rel;
      RelTraitSet traits = m.getTraitSet().replace(EnumerableConvention.INSTANCE);
      RelNode input = convert(m.getInput(), m.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
      return new TravertineTableModify(m.getCluster(), traits, m.getTable(), m.getCatalogReader(), input,
          m.getOperation(), m.getUpdateColumnList(), m.getSourceExpressionList(), m.isFlattened());
    }
  }

  TravertineTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
      Prepare.CatalogReader catalogReader, RelNode input, Operation operation,
      @Nullable List<String> updateColumnList, @Nullable List<RexNode> sourceExpressionList, boolean flattened) {
    super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList,
        flattened);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new TravertineTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), sole(inputs),
        getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened());
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    TravertineTable t = getTable().unwrap(TravertineTable.class);
    BlockBuilder b = new BlockBuilder();
    if (getOperation() != Operation.INSERT) {
      // Fails when executed, with the message as the statement's error.
      Expression fail = b.append("count", Expressions.call(TravertineRuntime.class, "unsupported",
          Expressions.constant(getOperation() + " runs as a mutation, not as a plan (this plan is shown by"
              + " EXPLAIN only)")));
      b.add(Expressions.return_(null,
          Expressions.call(BuiltInMethod.SINGLETON_ENUMERABLE.method, Expressions.box(fail))));
      return implementor.result(PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
          pref.prefer(JavaRowFormat.SCALAR)), b.toBlock());
    }
    Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    Expression source = b.append("source", input.block);
    Expression count = b.append("count",
        Expressions.call(TravertineRuntime.class, "insert", DataContext.ROOT, Expressions.constant(t.name()),
            source));
    b.add(Expressions.return_(null,
        Expressions.call(BuiltInMethod.SINGLETON_ENUMERABLE.method, Expressions.box(count))));
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.SCALAR));
    return implementor.result(physType, b.toBlock());
  }
}
