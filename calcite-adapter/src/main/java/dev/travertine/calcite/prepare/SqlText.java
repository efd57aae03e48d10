package dev.travertine.calcite.prepare;

/** Reading SQL text without a parser: where a string literal, quoted name or comment ends. */
public final class SqlText {
  private SqlText() {}

  /**
   * If a string literal ({@code '…'}), a quoted name ({@code "…"}, {@code `…`}, doubled quotes
   * inside), a line comment ({@code --} up to, not including, its line break) or a block comment
   * starts at {@code i}, the index just after it (the text's length when it is not closed); else -1.
   */
  public static int skipQuotedOrComment(String sql, int i) {
    int n = sql.length();
    char c = sql.charAt(i);
    if (c == '\'' || c == '"' || c == '`') {
      int j = i + 1;
      while (j < n) {
        if (sql.charAt(j) == c) {
          if (j + 1 < n && sql.charAt(j + 1) == c) {
            j += 2;
            continue;
          }
          return j + 1;
        }
        j++;
      }
      return n;
    }
    if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
      int j = sql.indexOf('\n', i);
      return j < 0 ? n : j;
    }
    if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
      int j = sql.indexOf("*/", i + 2);
      return j < 0 ? n : j + 2;
    }
    return -1;
  }
}
