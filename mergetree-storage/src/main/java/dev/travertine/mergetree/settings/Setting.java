package dev.travertine.mergetree.settings;

import java.util.List;
import java.util.Locale;

/**
 * One named setting: its type, default, where it applies and what it means. Values travel as
 * strings and are normalised by {@link #normalize}; bad values get a clear error.
 */
public record Setting(String name, Type type, String defaultValue, Scope scope, String description,
    long min, long max, List<String> choices) {

  /** Value types. */
  public enum Type { UINT, BOOL, STRING, CHOICE, NAME }

  /** TABLE settings go in CREATE TABLE … SETTINGS; SESSION ones in SET (and server defaults). */
  public enum Scope { TABLE, SESSION }

  public static Setting uint(String name, long def, long min, long max, Scope scope, String description) {
    return new Setting(name, Type.UINT, Long.toString(def), scope, description, min, max, List.of());
  }

  public static Setting bool(String name, boolean def, Scope scope, String description) {
    return new Setting(name, Type.BOOL, def ? "1" : "0", scope, description, 0, 1, List.of());
  }

  public static Setting choice(String name, String def, List<String> choices, Scope scope, String description) {
    return new Setting(name, Type.CHOICE, def, scope, description, 0, 0, List.copyOf(choices));
  }

  /** A storage location: empty (the data directory), s3://bucket/prefix, hdfs://host:port/path or file:/dir. */
  /** A name (letters, digits, '_', '-', '.'), empty by default. */
  public static Setting name(String name, Scope scope, String description) {
    return new Setting(name, Type.NAME, "", scope, description, 0, 0, List.of());
  }

  public static Setting location(String name, Scope scope, String description) {
    return new Setting(name, Type.STRING, "", scope, description, 0, 0, List.of());
  }

  /** Returns the canonical form of a value or throws IllegalArgumentException saying why not. */
  public String normalize(String value) {
    if (value == null) {
      throw new IllegalArgumentException("Invalid value for setting " + name + ": NULL");
    }
    String v = value.trim();
    switch (type) {
      case UINT -> {
        long n;
        try {
          n = Long.parseLong(v);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "Invalid value for setting " + name + ": '" + value + "' (expected an integer)");
        }
        if (n < min || n > max) {
          throw new IllegalArgumentException("Invalid value for setting " + name + ": " + n
              + " (must be between " + min + " and " + max + ")");
        }
        return Long.toString(n);
      }
      case BOOL -> {
        return switch (v.toLowerCase(Locale.ROOT)) {
          case "1", "true", "on", "yes" -> "1";
          case "0", "false", "off", "no" -> "0";
          default -> throw new IllegalArgumentException(
              "Invalid value for setting " + name + ": '" + value + "' (expected 0/1 or true/false)");
        };
      }
      case CHOICE -> {
        String lower = v.toLowerCase(Locale.ROOT);
        if (!choices.contains(lower)) {
          throw new IllegalArgumentException(
              "Invalid value for setting " + name + ": '" + value + "' (expected one of " + choices + ")");
        }
        return lower;
      }
      case NAME -> {
        if (!v.matches("[A-Za-z0-9_.-]*")) {
          throw new IllegalArgumentException("Invalid value for setting " + name + ": '" + value
              + "' (expected a name of letters, digits, '_', '-' and '.')");
        }
        return v;
      }
      default -> {
        if (!v.isEmpty() && !(v.startsWith("s3://") || v.startsWith("hdfs://") || v.startsWith("file:/"))) {
          throw new IllegalArgumentException("Invalid value for setting " + name + ": '" + value
              + "' (expected s3://bucket/prefix, hdfs://host:port/path or file:/directory)");
        }
        return v;
      }
    }
  }
}
