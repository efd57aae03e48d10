package dev.travertine.mergetree.settings;

import java.util.Map;
import java.util.TreeMap;

/** A table's MergeTree settings: the values given in CREATE TABLE, defaults for the rest. */
public record TableSettings(Map<String, String> values) {

  /** Normalises and checks CREATE TABLE settings; throws on unknown names or bad values. */
  public static Map<String, String> validate(Map<String, String> given) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> e : given.entrySet()) {
      Setting s = Settings.require(e.getKey(), Setting.Scope.TABLE);
      out.put(s.name(), s.normalize(e.getValue()));
    }
    return Map.copyOf(out);
  }

  public String get(Setting s) {
    return values.getOrDefault(s.name(), s.defaultValue());
  }

  public long getLong(Setting s) {
    return Long.parseLong(get(s));
  }

  public boolean getBool(Setting s) {
    return get(s).equals("1");
  }

  public int indexGranularity() {
    return (int) getLong(Settings.INDEX_GRANULARITY);
  }
}
