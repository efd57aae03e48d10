package dev.travertine.calcite.vectorized;

import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.exec.op.Step;
import dev.travertine.vector.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;

/**
 * A relational operator that runs in Travertine's vectorized engine (the {@link #CONVENTION}
 * convention): on column batches with selection vectors, in the scan's worker threads where it
 * can. A subtree of them sits on a {@link VectorizedScan} and ends in one
 * {@link VectorizedToEnumerable}, which runs it as an engine {@code Fragment} and hands rows to
 * Calcite's operators above. Every rel of the subtree has one input, so the subtree is a chain.
 */
public interface VectorizedRel extends RelNode {
  Convention CONVENTION = new Convention.Impl("TRAVERTINE", VectorizedRel.class);

  /** The engine step this rel is (the scan is none: it starts the fragment). */
  Step step();

  /** The rel's own row expressions (a filter's condition, a projection's, a join's residual). */
  default List<RexNode> expressions() {
    return List.of();
  }

  /** Whether the planner may use the convention: a per-statement switch (setting vectorized_execution). */
  ThreadLocal<Boolean> ENABLED = ThreadLocal.withInitial(() -> Boolean.TRUE);

  static boolean enabled() {
    return ENABLED.get();
  }

  /** The engine types of a row type's fields, or null when one has no engine type. */
  static List<DataType> engineTypes(RelDataType rowType) {
    List<DataType> out = new ArrayList<>();
    for (RelDataTypeField f : rowType.getFieldList()) {
      try {
        out.add(TypeMapping.fromRelType(f.getType()));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return out;
  }

  /**
   * The cost of a vectorized operator: half of what Calcite's cost model gives the same operator
   * (the Enumerable one costs the same), so the planner prefers the vectorized one whenever it
   * can be used, and the converter's per-row cost decides for bare scans.
   */
  static RelOptCost cheaper(RelOptCost enumerableCost) {
    return enumerableCost == null ? null : enumerableCost.multiplyBy(0.5);
  }
}
