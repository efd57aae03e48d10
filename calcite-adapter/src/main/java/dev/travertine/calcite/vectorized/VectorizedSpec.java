package dev.travertine.calcite.vectorized;

import dev.travertine.calcite.file.FileScanSpec;
import dev.travertine.calcite.rel.ScanSpec;
import dev.travertine.exec.op.Fragment;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * What a {@link VectorizedToEnumerable} runs, stashed in the query's data context like a
 * {@link ScanSpec}: the scan (table, projection, pushed filter, read-in-order) or, for files, the
 * {@link FileScanSpec} (the other is null), the fragment's
 * steps, and the SQL types of its output fields (how rows are handed to Calcite).
 *
 * @param joinSources the scans of the fragment's join build sides: a join step's source k is
 *     {@code joinSources.get(k - 1)} (source 0 is the fragment's own scan)
 */
public record VectorizedSpec(ScanSpec scan, FileScanSpec files, Fragment fragment, List<SqlTypeName> outputTypes,
    List<Source> joinSources) {
  public VectorizedSpec {
    joinSources = List.copyOf(joinSources);
  }

  /** A scan of a table ({@code scan}) or of files ({@code files}); the other is null. */
  public record Source(ScanSpec scan, FileScanSpec files) {}

  /** Whether the fragment joins other scans (it then runs on this node only). */
  public boolean joins() {
    return !joinSources.isEmpty();
  }
}
