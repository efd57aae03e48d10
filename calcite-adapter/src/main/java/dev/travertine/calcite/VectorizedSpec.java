package dev.travertine.calcite;

import dev.travertine.exec.op.Fragment;
import java.util.List;

/**
 * What a {@link VectorizedToEnumerable} runs, stashed in the query's data context like a
 * {@link ScanSpec}: the scan (table, projection, pushed filter, read-in-order) or, for files, the
 * {@link FileScanSpec} (the other is null), the fragment's
 * steps, and the SQL type names of its output fields (how rows are handed to Calcite).
 */
public record VectorizedSpec(ScanSpec scan, FileScanSpec files, Fragment fragment, List<String> outputTypes) {}
