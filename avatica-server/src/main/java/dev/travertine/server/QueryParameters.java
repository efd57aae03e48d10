package dev.travertine.server;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ClickHouse's query parameters: {@code {name:Type}} in a statement, its value from the request's
 * {@code param_name}, put in as a literal of that type (never as SQL text): numbers are checked to
 * be numbers, strings are quoted, dates and times become typed literals. A placeholder without a
 * value is an error (ClickHouse's UNKNOWN_QUERY_PARAMETER, 456).
 */
final class QueryParameters {
  private QueryParameters() {}

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)\\s*:\\s*([A-Za-z0-9_()., ]+?)\\s*\\}");
  private static final Pattern NUMBER = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");

  static String substitute(String sql, Map<String, String> params) {
    if (sql.indexOf('{') < 0) {
      return sql;
    }
    Matcher m = PLACEHOLDER.matcher(sql);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value = params.get("param_" + name);
      if (value == null) {
        throw new IllegalArgumentException("Substitution {" + name + ":" + m.group(2) + "} is not set: send param_"
            + name + " with the request");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(literal(name, m.group(2), value)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String literal(String name, String type, String value) {
    String t = type.strip().toLowerCase(Locale.ROOT);
    boolean nullable = t.startsWith("nullable(") && t.endsWith(")");
    if (nullable) {
      t = t.substring("nullable(".length(), t.length() - 1).strip();
      if (value.equals("\\N")) {
        return "NULL";
      }
    }
    if (t.matches("u?int(8|16|32|64|128|256)?|float(32|64)?|double|decimal.*|integer|bigint|smallint|tinyint")) {
      if (!NUMBER.matcher(value).matches()) {
        throw new IllegalArgumentException("Value of param_" + name + " is not a number for type " + type + ": '"
            + value + "'");
      }
      return value;
    }
    if (t.equals("bool") || t.equals("boolean")) {
      return switch (value.toLowerCase(Locale.ROOT)) {
        case "1", "true" -> "TRUE";
        case "0", "false" -> "FALSE";
        default -> throw new IllegalArgumentException("Value of param_" + name + " is not a boolean: '" + value + "'");
      };
    }
    String quoted = "'" + value.replace("'", "''") + "'";
    if (t.equals("date") || t.equals("date32")) {
      return "DATE " + quoted;
    }
    if (t.startsWith("datetime")) {
      return "TIMESTAMP " + quoted;
    }
    if (t.equals("string") || t.startsWith("fixedstring") || t.equals("varchar") || t.equals("uuid")) {
      return quoted;
    }
    if (t.equals("identifier")) {
      return "\"" + value.replace("\"", "\"\"") + "\"";
    }
    throw new IllegalArgumentException("Unknown type " + type + " of query parameter " + name);
  }
}
