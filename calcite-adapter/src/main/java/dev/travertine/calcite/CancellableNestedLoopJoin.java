package dev.travertine.calcite;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;

/**
 * Calcite's nested-loop join whose predicate checks the query's cancellation and limits. A join
 * without an equality runs for outer × inner predicate calls in Calcite's library code, where no
 * row reaches our scan or the result for a long time, so neither of their checks would see a
 * KILL QUERY, {@code Statement.cancel()}, a timeout or {@code max_execution_time}.
 * {@link #replaceIn} swaps every {@link EnumerableNestedLoopJoin} of a planned tree for this one,
 * which calls {@link TravertineRuntime#nestedLoopJoin} instead of the library's join.
 */
final class CancellableNestedLoopJoin extends EnumerableNestedLoopJoin {
  private static final Method LIBRARY = BuiltInMethod.NESTED_LOOP_JOIN.method;

  private CancellableNestedLoopJoin(EnumerableNestedLoopJoin j) {
    this(j.getTraitSet(), j.getLeft(), j.getRight(), j.getCondition(), j.getVariablesSet(), j.getJoinType());
  }

  private CancellableNestedLoopJoin(RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
      Set<CorrelationId> variablesSet, JoinRelType joinType) {
    super(left.getCluster(), traits, left, right, condition, variablesSet, joinType);
  }

  /** The tree with each of Calcite's nested-loop joins replaced by a cancellable one. */
  static RelNode replaceIn(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        return visited instanceof EnumerableNestedLoopJoin j && !(visited instanceof CancellableNestedLoopJoin)
            ? new CancellableNestedLoopJoin(j) : visited;
      }
    });
  }

  @Override public EnumerableNestedLoopJoin copy(RelTraitSet traitSet, RexNode condition, RelNode left,
      RelNode right, JoinRelType joinType, boolean semiJoinDone) {
    return new CancellableNestedLoopJoin(traitSet, left, right, condition, variablesSet, joinType);
  }

  /** EXPLAIN shows the operator it is. */
  @Override public String getRelTypeName() {
    return EnumerableNestedLoopJoin.class.getSimpleName();
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result library = super.implement(implementor, pref);
    Expression root = implementor.getRootExpression();
    BlockStatement block = (BlockStatement) library.block.accept(new Shuttle() {
      @Override public Expression visit(MethodCallExpression call, Expression target, List<Expression> args) {
        if (!call.method.equals(LIBRARY)) {
          return super.visit(call, target, args);
        }
        List<Expression> withRoot = new ArrayList<>(args.size() + 1);
        withRoot.add(root);
        withRoot.addAll(args);
        return Expressions.call(TravertineRuntime.class, "nestedLoopJoin", withRoot);
      }
    });
    return new Result(block, library.physType, library.format);
  }
}
