package dev.travertine.calcite.vectorized;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * A vectorized rel with one input. Not a {@code SingleRel}: Calcite's metadata gives a SingleRel
 * its input's row count, while each vectorized rel estimates its own ({@link #estimateRowCount}),
 * which is what the metadata falls back to for other rels. Nor a {@code Filter}, {@code Project},
 * {@code Aggregate} or {@code Sort}: Calcite's logical rules match those classes, and letting
 * them rewrite vectorized rels made Volcano take minutes over some plans.
 */
abstract class VectorizedSingleRel extends AbstractRelNode implements VectorizedRel {
  protected RelNode input;

  VectorizedSingleRel(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
    super(cluster, traits);
    this.input = input;
  }

  RelNode getInput() {
    return input;
  }

  @Override public List<RelNode> getInputs() {
    return List.of(input);
  }

  @Override public void replaceInput(int ordinalInParent, RelNode rel) {
    assert ordinalInParent == 0;
    this.input = rel;
    recomputeDigest();
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return mq.getRowCount(input);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).input("input", input);
  }

  @Override protected org.apache.calcite.rel.type.RelDataType deriveRowType() {
    return input.getRowType();
  }
}
