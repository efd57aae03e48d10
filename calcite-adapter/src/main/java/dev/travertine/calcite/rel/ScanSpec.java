package dev.travertine.calcite.rel;

import dev.travertine.vector.Predicate;

/**
 * What the planner pushed into a scan, in table-column terms. It reaches the generated code
 * stashed in the query's data context, not written into the code: two queries that differ only
 * in their pushed filters' values share one compiled class. Not modified once built.
 *
 * @param table table name
 * @param projection table column of each output field
 * @param filter pushed predicate (null = none)
 * @param limit max rows (-1 = none)
 * @param ordered rows in sort-key order
 */
public record ScanSpec(String table, int[] projection, Predicate filter, long limit, boolean ordered) {
}
