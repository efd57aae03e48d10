package dev.travertine.calcite.rel;

import org.apache.calcite.rel.RelNode;

/** A logical scan that reads only the columns a Project above it uses ({@link TravertineRules}' project rule). */
public interface ProjectableScan {
  /** The source column of each output field. */
  int[] projection();

  /** Whether the rows come in an order a new projection would have to keep. */
  boolean ordered();

  /** The same scan reading {@code projection} (source columns) instead. */
  RelNode withProjection(int[] projection);
}
