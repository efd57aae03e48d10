package dev.travertine.mergetree.scan;

import org.apache.orc.TypeDescription;

/** How a table scan's vectors are made. */
final class ScanBatches {
  private ScanBatches() {}

  /**
   * DECIMAL columns of up to 18 digits are read as scaled longs ({@code Decimal64ColumnVector},
   * see {@code dev.travertine.vector.Decimals}), not one Hive decimal object per value. The JVM
   * property {@code travertine.scan.decimal64=false} reads them as objects again: the "off" side
   * of benchmarks (docs/benchmarks.md).
   */
  static final TypeDescription.RowBatchVersion DECIMAL_FORM =
      Boolean.parseBoolean(System.getProperty("travertine.scan.decimal64", "true"))
          ? TypeDescription.RowBatchVersion.USE_DECIMAL64 : TypeDescription.RowBatchVersion.ORIGINAL;
}
