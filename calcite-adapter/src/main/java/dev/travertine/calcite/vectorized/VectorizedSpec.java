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
 *     {@code joinSources.get(k - 1)} (source 0 is {@code scan} or {@code files})
 * @param mainSource the fragment's own scan: 0, or a shared subplan's result among the join
 *     sources (the subplan then reads source 0 itself)
 */
public record VectorizedSpec(ScanSpec scan, FileScanSpec files, Fragment fragment, List<SqlTypeName> outputTypes,
    List<Source> joinSources, int mainSource) {
  public VectorizedSpec {
    joinSources = List.copyOf(joinSources);
    if (mainSource < 0 || mainSource > joinSources.size()
        || mainSource > 0 && joinSources.get(mainSource - 1).shared() == null) {
      throw new IllegalArgumentException("The fragment's scan is source 0 or a shared result, not " + mainSource);
    }
  }

  public VectorizedSpec(ScanSpec scan, FileScanSpec files, Fragment fragment, List<SqlTypeName> outputTypes,
      List<Source> joinSources) {
    this(scan, files, fragment, outputTypes, joinSources, 0);
  }

  /**
   * A scan of a table ({@code scan}) or of files ({@code files}), or the result of a subplan that
   * several build sides read ({@code shared}, run once over source {@code sharedScan}: see
   * {@link dev.travertine.exec.op.SharedResult}); the others are null.
   */
  public record Source(ScanSpec scan, FileScanSpec files, Fragment shared, int sharedScan) {
    public Source(ScanSpec scan, FileScanSpec files) {
      this(scan, files, null, -1);
    }

    /** The result of {@code fragment} over source {@code scan} (a position in the spec's sources), run once. */
    public static Source shared(Fragment fragment, int scan) {
      return new Source(null, null, fragment, scan);
    }
  }

  /** Whether the fragment joins other scans (it then runs on this node only). */
  public boolean joins() {
    return !joinSources.isEmpty();
  }
}
