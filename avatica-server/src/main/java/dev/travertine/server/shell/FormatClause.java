package dev.travertine.server.shell;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A query's trailing {@code FORMAT name}, as ClickHouse's clients take it: {@code SELECT … FORMAT
 * JSONEachRow}. The clause is the client's business (how to write the rows), so it is taken off
 * before the statement goes to the engine. {@code INSERT … FORMAT} and {@code … INTO OUTFILE …
 * FORMAT} are the engine's own and stay.
 */
public final class FormatClause {
  private FormatClause() {}

  /** A statement without its clause, and the format the clause named (null when none). */
  public record Split(String sql, OutputFormat format) {}

  private static final Pattern TRAILING =
      Pattern.compile("(?is)^(.*?\\S)\\s+FORMAT\\s+([A-Za-z][A-Za-z0-9_]*)\\s*;?\\s*$");
  private static final Pattern QUERY_START =
      Pattern.compile("(?is)^\\s*\\(*\\s*(SELECT|WITH|VALUES|SHOW|DESCRIBE|DESC|EXPLAIN|EXISTS|TABLE)\\b.*");
  private static final Pattern OUTFILE = Pattern.compile("(?is).*\\bINTO\\s+OUTFILE\\b.*");

  /**
   * Takes a trailing {@code FORMAT name} off a query.
   *
   * @throws IllegalArgumentException when the clause names a format we do not write
   */
  public static Split split(String sql) {
    if (!QUERY_START.matcher(sql).matches() || OUTFILE.matcher(sql).matches()) {
      return new Split(sql, null);
    }
    Matcher m = TRAILING.matcher(sql);
    if (!m.matches()) {
      return new Split(sql, null);
    }
    OutputFormat format = OutputFormat.byClickHouseName(m.group(2));
    if (format == null) {
      throw new IllegalArgumentException("Unknown output format '" + m.group(2) + "'; known: "
          + OutputFormat.CLICKHOUSE_NAMES);
    }
    return new Split(m.group(1), format);
  }
}
