package dev.travertine.calcite.file;


/**
 * What a plan keeps of a {@code file()}/{@code s3()}/{@code hdfs()} scan, stashed in the query's
 * data context like a {@link dev.travertine.calcite.rel.ScanSpec}: the function's arguments (the files are listed again when
 * the plan runs) and the table columns read, in the scan's field order.
 */
public record FileScanSpec(String scheme, String pattern, String format, String structure, int[] projection) {}
