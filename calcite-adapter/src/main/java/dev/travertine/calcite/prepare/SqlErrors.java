package dev.travertine.calcite.prepare;

import dev.travertine.mergetree.query.QueryContext;
import java.util.Locale;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * What a failed statement tells its client: one readable message (the cause's own words, not the
 * chain of wrappers around it), a SQLSTATE where one fits and ClickHouse's error code, as
 * ClickHouse prints {@code Code: 60. DB::Exception: Table default.x does not exist}.
 */
public final class SqlErrors {
  private SqlErrors() {}

  /** A classified failure. */
  public record Error(int code, String sqlState, String message) {}

  public static final String GENERAL = "HY000";

  /** Classifies a failure by its causes, innermost first. */
  public static Error classify(Throwable t) {
    String message = message(t);
    String lower = message.toLowerCase(Locale.ROOT);
    if (lower.matches("(?s)database '?[^ ]+'? does not exist.*")) {
      return new Error(81, "3F000", message); // UNKNOWN_DATABASE
    }
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof dev.travertine.formats.BulkLoad.BadInputException) {
        return new Error(27, "22018", message); // CANNOT_PARSE_INPUT_ASSERTION_FAILED
      }
      if (c instanceof SqlParseException) {
        return new Error(62, "42000", message); // SYNTAX_ERROR
      }
      if (c instanceof QueryContext.QueryLimitException) {
        if (lower.contains("(max_execution_time)") || lower.contains("(statement.setquerytimeout)")) {
          return new Error(159, "57014", message); // TIMEOUT_EXCEEDED
        }
        if (lower.contains("max_concurrent_queries")) {
          return new Error(202, "53300", message); // TOO_MANY_SIMULTANEOUS_QUERIES
        }
        if (lower.contains("(max_bytes_to_read)")) {
          return new Error(307, "53400", message); // TOO_MANY_BYTES
        }
        return new Error(158, "53400", message); // TOO_MANY_ROWS
      }
      if (c instanceof ArithmeticException && lower.contains("by zero")) {
        return new Error(153, "22012", message); // ILLEGAL_DIVISION
      }
      if (c instanceof dev.travertine.mergetree.ReadOnlyTableException) {
        return new Error(242, "25006", message); // TABLE_IS_READ_ONLY
      }
      if (c instanceof UnsupportedOperationException) {
        return new Error(48, "0A000", message); // NOT_IMPLEMENTED
      }
      if (c instanceof SecurityException) {
        return lower.contains("readonly") || lower.contains("read-only")
            ? new Error(164, "25006", message) // READONLY
            : new Error(497, "42501", message); // ACCESS_DENIED
      }
    }
    if (lower.contains("memory limit") && lower.contains("exceeded")) {
      return new Error(241, "53200", message); // MEMORY_LIMIT_EXCEEDED
    }
    if (lower.contains("was cancelled")) {
      return new Error(394, "57014", message); // QUERY_WAS_CANCELLED
    }
    if (lower.matches("(?s).*column '[^']+' not found in (any table|table '[^']+').*")
        || lower.contains("unknown field '")) {
      return new Error(47, "42703", message); // UNKNOWN_IDENTIFIER
    }
    if (lower.contains("does not allow nulls") || lower.contains("cannot be null")) {
      return new Error(349, "23502", message); // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
    }
    if (lower.contains("no match found for function signature")) {
      return new Error(46, "42883", message); // UNKNOWN_FUNCTION
    }
    if (lower.contains("cannot apply '") && lower.contains("to arguments of type")) {
      return new Error(43, "42883", message); // ILLEGAL_TYPE_OF_ARGUMENT
    }
    if (lower.contains("cannot assign to target field")) {
      return new Error(53, "42804", message); // TYPE_MISMATCH
    }
    if (lower.matches("(?s).*(object|table) '?[^ ]+'? (not found|does not exist).*")) {
      return new Error(60, "42S02", message); // UNKNOWN_TABLE
    }
    if (lower.contains("by zero")) {
      return new Error(153, "22012", message);
    }
    if (lower.matches("(?s)query with id = .* is already running.*")) {
      return new Error(216, "55006", message); // QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING
    }
    if (lower.contains("unknown setting")) {
      return new Error(115, "42704", message); // UNKNOWN_SETTING
    }
    if (lower.matches("(?s).*table '?[^ ]+'? already exists.*")) {
      return new Error(57, "42S01", message); // TABLE_ALREADY_EXISTS
    }
    if (lower.contains("values were supplied")) {
      return new Error(7, "21S01", message); // NUMBER_OF_COLUMNS_DOESNT_MATCH
    }
    if (lower.startsWith("cannot parse '")) {
      return new Error(6, "22018", message); // CANNOT_PARSE_TEXT
    }
    return new Error(1001, GENERAL, message);
  }

  /**
   * A statement's failure with the words of a parse error made to name what it found: Calcite says
   * "Non-query expression encountered in illegal context" for a statement that starts with a word
   * that is no keyword ({@code SELEC * FROM t}); this says which word, and where.
   */
  public static RuntimeException withStatementText(RuntimeException e, String sql) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SqlParseException p && p.getMessage() != null
          && p.getMessage().startsWith("Non-query expression encountered in illegal context")
          && p.getPos() != null && p.getPos().getLineNum() > 0) {
        int line = p.getPos().getLineNum();
        int column = p.getPos().getColumnNum();
        String word = wordAt(sql, line, column);
        String m = "Syntax error: a statement cannot start with '" + word + "' at line " + line
            + ", column " + column + ".";
        SqlParseException better = new SqlParseException(m, p.getPos(), p.getExpectedTokenSequences(),
            p.getTokenImages(), null);
        return new RuntimeException("parse failed: " + m, better);
      }
    }
    return e;
  }

  /** The word (or the one character) at a 1-based line and column of {@code sql}. */
  static String wordAt(String sql, int line, int column) {
    int i = 0;
    for (int l = 1; l < line && i >= 0; l++) {
      i = sql.indexOf('\n', i);
      i = i < 0 ? -1 : i + 1;
    }
    if (i < 0 || i + column - 1 >= sql.length()) {
      return "";
    }
    int start = i + column - 1;
    int end = start;
    while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
      end++;
    }
    return sql.substring(start, Math.max(end, start + 1));
  }

  /**
   * The words of the failure: the innermost cause's message, or an outer one that only adds
   * context in front of it (Calcite's "From line 1, column 15 to line 1, column 21: …"), without
   * the wrappers' "Error while executing SQL "…": " and class-name prefixes; parse errors keep
   * their first line (not the list of tokens Calcite expected).
   */
  static String message(Throwable t) {
    java.util.List<Throwable> chain = new java.util.ArrayList<>();
    for (Throwable c = t; c != null && !chain.contains(c); c = c.getCause()) {
      chain.add(c);
    }
    String best = null;
    for (int i = chain.size() - 1; i >= 0; i--) {
      Throwable c = chain.get(i);
      String m = c.getMessage();
      if (c instanceof SqlParseException && m != null && m.indexOf('\n') > 0) {
        m = m.substring(0, m.indexOf('\n')).trim();
      }
      m = clean(m);
      if (m == null || m.isBlank()) {
        continue;
      }
      if (best == null || (m.length() > best.length() && m.endsWith(best))) {
        best = m;
      }
    }
    return best == null ? t.getClass().getSimpleName() : best;
  }

  private static final java.util.regex.Pattern CLASS_PREFIX =
      java.util.regex.Pattern.compile("^([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(Exception|Error): ");

  /** Drops the prefixes wrappers put before the cause's words. */
  private static String clean(String m) {
    if (m == null) {
      return null;
    }
    String s = m;
    while (true) {
      java.util.regex.Matcher cm = CLASS_PREFIX.matcher(s);
      if (cm.find()) {
        s = s.substring(cm.end());
      } else if (s.startsWith("Error while executing SQL \"") && s.indexOf("\": ") > 0) {
        s = s.substring(s.indexOf("\": ") + 3);
      } else if (s.startsWith("parse failed: ")) {
        s = s.substring("parse failed: ".length());
      } else {
        return s;
      }
    }
  }
}
