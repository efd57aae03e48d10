package dev.travertine.calcite.rel;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A rule's configuration as Calcite's {@link RelRule} takes it (what Calcite's own rules get from
 * generated Immutables classes): the operands, a description, the builder factory, and the rule's
 * constructor, which {@link #toRule} calls. Rebuilding a rule with another builder (as the planner
 * does, see {@link TravertineRules#withSafeBuilder}) makes a new rule of the same class.
 *
 * @param <R> the rule it makes
 */
public record RuleConfig<R extends RelOptRule>(RelBuilderFactory relBuilderFactory, @Nullable String description,
    RelRule.OperandTransform operandSupplier, Function<RuleConfig<R>, R> factory) implements RelRule.Config {

  /** A configuration with Calcite's logical builder. */
  public static <R extends RelOptRule> RuleConfig<R> of(String description, RelRule.OperandTransform operands,
      Function<RuleConfig<R>, R> factory) {
    return new RuleConfig<>(RelFactories.LOGICAL_BUILDER, description, operands, factory);
  }

  @Override public RuleConfig<R> withRelBuilderFactory(RelBuilderFactory f) {
    return new RuleConfig<>(f, description, operandSupplier, factory);
  }

  @Override public RuleConfig<R> withDescription(@Nullable String d) {
    return new RuleConfig<>(relBuilderFactory, d, operandSupplier, factory);
  }

  @Override public RuleConfig<R> withOperandSupplier(RelRule.OperandTransform t) {
    return new RuleConfig<>(relBuilderFactory, description, t, factory);
  }

  @Override public R toRule() {
    return factory.apply(this);
  }
}
