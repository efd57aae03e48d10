package dev.travertine.server.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into statements at the semicolons outside string literals, quoted
 * identifiers and comments, remembering where each statement starts, so that an error can name
 * the line and column of the script rather than of the statement.
 *
 * <p>A script that ends inside a string literal, a quoted identifier or a block comment is an
 * error (it never runs silently as nothing). The last statement needs no semicolon. Statements
 * that hold only comments are dropped.
 */
public final class ScriptSplitter {
  private ScriptSplitter() {}

  /** One statement: its text (leading comments and blanks removed) and where it starts (1-based). */
  public record Statement(String sql, int line, int column) {
    /**
     * Maps a position inside this statement (as a parser reports it, 1-based) to the script's.
     */
    public int[] scriptPosition(int statementLine, int statementColumn) {
      return statementLine <= 1
          ? new int[] {line, column + statementColumn - 1}
          : new int[] {line + statementLine - 1, statementColumn};
    }
  }

  /** The script cannot be split: it ends inside a literal, quoted identifier or comment. */
  public static final class UnterminatedException extends Exception {
    private final int line;
    private final int column;

    UnterminatedException(String what, int line, int column) {
      super(what + " is not closed: the input ends inside it");
      this.line = line;
      this.column = column;
    }

    public int line() {
      return line;
    }

    public int column() {
      return column;
    }
  }

  public static List<Statement> split(String script) throws UnterminatedException {
    List<Statement> out = new ArrayList<>();
    int n = script.length();
    int line = 1;
    int column = 1;
    int start = -1; // index of the current statement's first significant character
    int startLine = 0;
    int startColumn = 0;
    int i = 0;
    while (i < n) {
      char c = script.charAt(i);
      if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
        while (i < n && script.charAt(i) != '\n') {
          i++;
          column++;
        }
        continue;
      }
      if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
        int l0 = line;
        int c0 = column;
        i += 2;
        column += 2;
        boolean closed = false;
        while (i < n) {
          char d = script.charAt(i);
          if (d == '*' && i + 1 < n && script.charAt(i + 1) == '/') {
            i += 2;
            column += 2;
            closed = true;
            break;
          }
          if (d == '\n') {
            line++;
            column = 1;
          } else {
            column++;
          }
          i++;
        }
        if (!closed) {
          throw new UnterminatedException("A comment /*", l0, c0);
        }
        continue;
      }
      if (c == ';') {
        if (start >= 0) {
          out.add(new Statement(script.substring(start, i).strip(), startLine, startColumn));
          start = -1;
        }
        i++;
        column++;
        continue;
      }
      if (c == '\n') {
        line++;
        column = 1;
        i++;
        continue;
      }
      if (Character.isWhitespace(c)) {
        i++;
        column++;
        continue;
      }
      if (start < 0) {
        start = i;
        startLine = line;
        startColumn = column;
      }
      if (c == '\'' || c == '"' || c == '`') {
        int l0 = line;
        int c0 = column;
        i++;
        column++;
        boolean closed = false;
        while (i < n) {
          char d = script.charAt(i);
          if (d == c) {
            if (i + 1 < n && script.charAt(i + 1) == c) { // doubled: an escaped quote
              i += 2;
              column += 2;
              continue;
            }
            i++;
            column++;
            closed = true;
            break;
          }
          if (d == '\n') {
            line++;
            column = 1;
          } else {
            column++;
          }
          i++;
        }
        if (!closed) {
          throw new UnterminatedException(c == '\'' ? "A string literal" : "A quoted identifier", l0, c0);
        }
        continue;
      }
      i++;
      column++;
    }
    if (start >= 0) {
      out.add(new Statement(script.substring(start).strip(), startLine, startColumn));
    }
    return out;
  }
}
