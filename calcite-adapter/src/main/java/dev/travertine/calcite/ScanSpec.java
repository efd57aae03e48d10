package dev.travertine.calcite;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.travertine.mergetree.scan.Predicate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import dev.travertine.mergetree.scan.Aggregation;

/**
 * What the planner pushed into a scan, in table-column terms; travels into generated code as a
 * JSON string constant.
 *
 * @param table table name
 * @param projection table column of each output field
 * @param filter pushed predicate (null = none)
 * @param limit max rows (-1 = none)
 * @param ordered rows in sort-key order
 * @param groupBy with {@code aggregates}: GROUP BY table columns (the scan returns aggregated rows)
 * @param aggregates aggregates computed by the engine (null = none)
 * @param outputTypes SQL type names of the output fields when aggregating
 */
public record ScanSpec(String table, int[] projection, Predicate filter, long limit, boolean ordered,
    int[] groupBy, List<Aggregation.Spec> aggregates, List<String> outputTypes) {
  private static final ObjectMapper JSON = new ObjectMapper();

  @JsonCreator
  public ScanSpec(@JsonProperty("table") String table, @JsonProperty("projection") int[] projection,
      @JsonProperty("filter") Predicate filter, @JsonProperty("limit") long limit,
      @JsonProperty("ordered") boolean ordered, @JsonProperty("groupBy") int[] groupBy,
      @JsonProperty("aggregates") List<Aggregation.Spec> aggregates,
      @JsonProperty("outputTypes") List<String> outputTypes) {
    this.groupBy = groupBy;
    this.aggregates = aggregates;
    this.outputTypes = outputTypes;
    this.table = table;
    this.projection = projection;
    this.filter = filter;
    this.limit = limit;
    this.ordered = ordered;
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static ScanSpec fromJson(String json) {
    try {
      return JSON.readValue(json, ScanSpec.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
