package dev.travertine.calcite.codegen;

import dev.travertine.calcite.runtime.TravertineRuntime;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.util.BuiltInMethod;

/**
 * The root of every planned tree, invisible in EXPLAIN: it rewrites the code Calcite's operators
 * generate so that their library loops answer to the query. Calcite's operators check nothing:
 * <ul>
 *   <li>a nested-loop join (no equality) runs outer × inner predicate calls where no row reaches
 *       our scan or the result for a long time; its call goes to
 *       {@link TravertineRuntime#nestedLoopJoin}, whose predicate checks KILL QUERY,
 *       {@code Statement.cancel()}, timeouts and {@code max_execution_time};</li>
 *   <li>what a sort, a hash join's build side and a nested-loop join's inner side (read once
 *       into a list by {@link TravertineRuntime#nestedLoopJoin}) hold is charged to the query's {@code max_memory_usage} as it is read
 *       ({@link TravertineRuntime#charged}).</li>
 * </ul>
 * The rewrite looks for the library methods those operators call, in the code of the whole tree.
 */
public final class GuardedRoot extends SingleRel implements EnumerableRel {
  /** Library methods whose argument at the index is held whole (materialized) by the operator. */
  private static final Map<Method, Integer> HELD = Map.of(
      BuiltInMethod.ORDER_BY.method, 0,
      BuiltInMethod.ORDER_BY_WITH_FETCH_AND_OFFSET.method, 0,
      BuiltInMethod.HASH_JOIN.method, 1,
      BuiltInMethod.SEMI_JOIN.method, 1,
      BuiltInMethod.ANTI_JOIN.method, 1,
      BuiltInMethod.NESTED_LOOP_JOIN.method, 1);

  private GuardedRoot(RelNode input) {
    super(input.getCluster(), input.getTraitSet(), input);
  }

  /** The tree under a guarded root (a tree that is not Calcite's enumerable code stays as it is). */
  public static RelNode wrap(RelNode rel) {
    return rel instanceof EnumerableRel && !(rel instanceof GuardedRoot) ? new GuardedRoot(rel) : rel;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new GuardedRoot(inputs.get(0));
  }

  /** EXPLAIN shows the tree it guards. */
  @Override public void explain(RelWriter pw) {
    getInput().explain(pw);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result child = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    Expression root = implementor.getRootExpression();
    BlockStatement block = (BlockStatement) child.block.accept(new Shuttle() {
      @Override public Expression visit(MethodCallExpression call, Expression target, List<Expression> args) {
        Expression visited = super.visit(call, target, args);
        Integer held = HELD.get(call.method);
        if (held == null || !(visited instanceof MethodCallExpression v)) {
          return visited;
        }
        List<Expression> a = new ArrayList<>(v.expressions);
        Expression t = v.targetExpression;
        boolean nestedLoop = call.method.equals(BuiltInMethod.NESTED_LOOP_JOIN.method);
        if (t == null) { // a static call: the held input is an argument
          a.set(held, charged(root, a.get(held)));
        } else if (held == 0) { // an instance call on the held input
          t = charged(root, t);
        } else {
          a.set(held - 1, charged(root, a.get(held - 1)));
        }
        if (nestedLoop) {
          a.add(0, root);
          return Expressions.call(TravertineRuntime.class, "nestedLoopJoin", a);
        }
        return Expressions.call(t, v.method, a);
      }
    });
    return new Result(block, child.physType, child.format);
  }

  private static Expression charged(Expression root, Expression enumerable) {
    return Expressions.call(TravertineRuntime.class, "charged", root, enumerable);
  }
}
