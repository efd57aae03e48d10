package dev.travertine.server.shell;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failed statement as one line for a person: the engine's words without the wrappers that
 * JDBC and Avatica put around them, the position in the script (not in the statement), the
 * ClickHouse code and SQLSTATE.
 */
public final class ErrorText {
  private ErrorText() {}

  private static final Pattern PREFIXES = Pattern.compile(
      "^(Error \\d+ \\([0-9A-Z]{5}\\) ?: ?|Error while executing SQL \"(?s:.*?)\": |Remote driver error: "
          + "|parse failed: |([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(Exception|Error): )");
  /** Calcite's positions: "From line 1, column 8 to line 1, column 11: …" and "… at line 1, column 12." */
  private static final Pattern FROM_TO =
      Pattern.compile("^From line (\\d+), column (\\d+) to line \\d+, column \\d+: ");
  private static final Pattern AT = Pattern.compile(" at line (\\d+), column (\\d+)(\\.?)");

  /** The engine's words: wrappers' prefixes off, the first line only unless verbose. */
  public static String message(Throwable e, boolean verbose) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
    for (Matcher p = PREFIXES.matcher(m); p.find(); p = PREFIXES.matcher(m)) {
      m = m.substring(p.end());
    }
    if (!verbose && m.indexOf('\n') > 0) {
      m = m.substring(0, m.indexOf('\n')).strip();
    }
    return m;
  }

  /**
   * The line printed for a statement that failed.
   *
   * @param showPosition whether to name the line even when the engine gave no position (a
   *     script of several statements, or one that does not start the input)
   * @param fileWhere " in FILE" for a file, else ""
   */
  static String describe(Throwable e, ScriptSplitter.Statement statement, boolean showPosition,
      String fileWhere, boolean verbose) {
    String m = message(e, verbose);
    int line = -1;
    int column = -1;
    Matcher ft = FROM_TO.matcher(m);
    if (ft.find()) {
      line = Integer.parseInt(ft.group(1));
      column = Integer.parseInt(ft.group(2));
      m = m.substring(ft.end());
    } else {
      Matcher at = AT.matcher(m);
      if (at.find()) {
        line = Integer.parseInt(at.group(1));
        column = Integer.parseInt(at.group(2));
        m = m.substring(0, at.start()) + m.substring(at.end());
      }
    }
    StringBuilder b = new StringBuilder("Error").append(fileWhere);
    if (line > 0) {
      int[] p = statement.scriptPosition(line, column);
      b.append(" at line ").append(p[0]).append(", column ").append(p[1]);
    } else if (showPosition) {
      b.append(" in the statement at line ").append(statement.line());
    }
    b.append(": ").append(m);
    if (e instanceof SQLException s && s.getErrorCode() != 0) {
      b.append(" (code ").append(s.getErrorCode());
      if (s.getSQLState() != null) {
        b.append(", SQLSTATE ").append(s.getSQLState());
      }
      b.append(')');
    }
    if (verbose) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      b.append('\n').append(trace);
    }
    return b.toString();
  }
}
