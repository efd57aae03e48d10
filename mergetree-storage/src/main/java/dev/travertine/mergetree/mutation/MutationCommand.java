package dev.travertine.mergetree.mutation;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a mutation does, as SQL text the adapter's {@link MutationCompiler} understands: delete
 * the rows matching {@code where}, or assign {@code assignments} (column → expression) to them.
 * {@code where} null means every row. {@code text} is the command as shown in system.mutations
 * (ClickHouse's {@code command} column), e.g. {@code UPDATE v = v + 1 WHERE id = 3}.
 */
public record MutationCommand(Kind kind, String where, Map<String, String> assignments, String text) {
  public enum Kind { DELETE, UPDATE }

  @JsonCreator
  public MutationCommand(@JsonProperty("kind") Kind kind, @JsonProperty("where") String where,
      @JsonProperty("assignments") Map<String, String> assignments, @JsonProperty("text") String text) {
    this.kind = kind;
    this.where = where;
    this.assignments = assignments == null ? Map.of() : java.util.Collections.unmodifiableMap(
        new LinkedHashMap<>(assignments));
    this.text = text;
    if (kind == Kind.UPDATE && this.assignments.isEmpty()) {
      throw new IllegalArgumentException("UPDATE needs at least one assignment");
    }
    if (kind == Kind.DELETE && !this.assignments.isEmpty()) {
      throw new IllegalArgumentException("DELETE has no assignments");
    }
  }

  public static MutationCommand delete(String where) {
    return new MutationCommand(Kind.DELETE, where, Map.of(), "DELETE WHERE " + (where == null ? "1" : where));
  }

  public static MutationCommand update(Map<String, String> assignments, String where) {
    StringBuilder sb = new StringBuilder("UPDATE ");
    String sep = "";
    for (Map.Entry<String, String> e : assignments.entrySet()) {
      sb.append(sep).append(e.getKey()).append(" = ").append(e.getValue());
      sep = ", ";
    }
    sb.append(" WHERE ").append(where == null ? "1" : where);
    return new MutationCommand(Kind.UPDATE, where, assignments, sb.toString());
  }
}
