package dev.travertine.mergetree.schema;

import java.util.List;
import java.util.function.Function;

/**
 * Name resolution shared by tables and columns: names keep their case; a lookup matches exactly
 * when it can, else case-insensitively when that is unambiguous (DuckDB's behaviour).
 */
public final class Names {
  private Names() {}

  /** Index of the matching item, or -1. Throws if only ambiguous case-insensitive matches exist. */
  public static <T> int find(List<T> items, Function<T, String> name, String wanted) {
    int ci = -1;
    int ciCount = 0;
    for (int i = 0; i < items.size(); i++) {
      String n = name.apply(items.get(i));
      if (n.equals(wanted)) {
        return i;
      }
      if (n.equalsIgnoreCase(wanted)) {
        ci = i;
        ciCount++;
      }
    }
    if (ciCount > 1) {
      throw new IllegalArgumentException("Ambiguous name '" + wanted + "': several differ only in case");
    }
    return ci;
  }
}
