package dev.travertine.mergetree.settings;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Settings of one session: defaults (e.g. from a server config) overridden by SET. Thread-safe. */
public final class SessionSettings {
  private final Map<String, String> defaults;
  private final Map<String, String> changed = new ConcurrentHashMap<>();

  public SessionSettings() {
    this(Map.of());
  }

  /** @param defaults overrides of the built-in defaults, validated here */
  public SessionSettings(Map<String, String> defaults) {
    Map<String, String> d = new TreeMap<>();
    defaults.forEach((k, v) -> {
      Setting s = Settings.require(k, Setting.Scope.SESSION);
      d.put(s.name(), s.normalize(v));
    });
    this.defaults = Map.copyOf(d);
  }

  /** SET name = value. */
  public void set(String name, String value) {
    Setting s = Settings.require(name, Setting.Scope.SESSION);
    changed.put(s.name(), s.normalize(value));
  }

  /** RESET name. */
  public void reset(String name) {
    Setting s = Settings.require(name, Setting.Scope.SESSION);
    changed.remove(s.name());
  }

  /** RESET ALL. */
  public void resetAll() {
    changed.clear();
  }

  public String get(Setting s) {
    String v = changed.get(s.name());
    if (v == null) {
      v = defaults.getOrDefault(s.name(), s.defaultValue());
    }
    return v;
  }

  public long getLong(Setting s) {
    return Long.parseLong(get(s));
  }

  public boolean getBool(Setting s) {
    return get(s).equals("1");
  }

  /** Whether SET changed the setting in this session. */
  public boolean isChanged(Setting s) {
    return changed.containsKey(s.name());
  }
}
