package dev.travertine.calcite.ddl;

import dev.travertine.calcite.parser.TravertineSqlParserImpl;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * ClickHouse's SHOW, DESCRIBE and EXISTS statements, each parsed into the query that answers it
 * (as {@link SqlCheckTable} does for CHECK TABLE): over the system tables where they hold the
 * answer, else over the table functions {@code describe_table}, {@code show_create_table} and
 * {@code exists_table} ({@code ShowFunctions}), so every one returns rows like any SELECT, over
 * JDBC and HTTP alike.
 */
public final class ShowStatements {
  private ShowStatements() {}

  /** The database of the user's tables and views. */
  public static final String MAIN = "main";
  /** The system tables' database. */
  public static final String SYSTEM = "system";

  /** The system tables (SystemSchema holds one of each). */
  public static final List<String> SYSTEM_TABLES = List.of("clusters", "columns", "detached_parts", "events",
      "merge_tree_settings", "merges", "metric_log", "metrics", "mutations", "parts", "processes", "query_log", "settings",
      "tables", "views");

  public static SqlNode tables(SqlParserPos pos, SqlIdentifier db, SqlNode like, boolean not) {
    String database = database(pos, db);
    String from = database.equals(SYSTEM)
        ? "(VALUES " + String.join(", ", SYSTEM_TABLES.stream().map(t -> "(" + quote(t) + ")").toList())
            + ") AS t(\"name\")"
        : "(SELECT \"name\" FROM \"system\".\"tables\" WHERE \"database\" = '" + MAIN + "'"
            + " UNION ALL SELECT \"name\" FROM \"system\".\"views\") AS t";
    return query("SELECT CAST(\"name\" AS VARCHAR) AS \"name\" FROM " + from + likeClause(like, not)
        + " ORDER BY \"name\"");
  }

  public static SqlNode databases(SqlParserPos pos, SqlNode like) {
    return query("SELECT CAST(\"name\" AS VARCHAR) AS \"name\""
        + " FROM (VALUES ('" + MAIN + "'), ('" + SYSTEM + "')) AS d(\"name\")"
        + likeClause(like, false) + " ORDER BY \"name\"");
  }

  public static SqlNode createTable(SqlParserPos pos, SqlIdentifier table) {
    return query("SELECT * FROM TABLE(\"show_create_table\"(" + quote(name(table)) + "))");
  }

  public static SqlNode describe(SqlParserPos pos, SqlIdentifier table) {
    return query("SELECT * FROM TABLE(\"describe_table\"(" + quote(name(table)) + "))");
  }

  public static SqlNode exists(SqlParserPos pos, SqlIdentifier table) {
    return query("SELECT * FROM TABLE(\"exists_table\"(" + quote(name(table)) + "))");
  }

  public static SqlNode processList(SqlParserPos pos) {
    return query("SELECT * FROM \"system\".\"processes\"");
  }

  public static SqlNode settings(SqlParserPos pos, SqlNode like) {
    return query("SELECT \"name\", \"type\", \"value\", \"changed\", \"default\", \"description\""
        + " FROM \"system\".\"settings\"" + likeClause(like, false) + " ORDER BY \"name\"");
  }

  /** A table's name as the table functions take it: "t" or "db.t". */
  private static String name(SqlIdentifier id) {
    return String.join(".", id.names);
  }

  /** The database a SHOW names: ours ("main", or ClickHouse's "default"), or "system". */
  private static String database(SqlParserPos pos, SqlIdentifier db) {
    if (db == null) {
      return MAIN;
    }
    String name = db.getSimple().toLowerCase(Locale.ROOT);
    if (name.equals(MAIN) || name.equals("default")) {
      return MAIN;
    }
    if (name.equals(SYSTEM)) {
      return SYSTEM;
    }
    throw new CalciteContextException("From line " + pos.getLineNum() + ", column " + pos.getColumnNum()
        + " to line " + pos.getEndLineNum() + ", column " + pos.getEndColumnNum(),
        new IllegalArgumentException("Database " + db.getSimple() + " does not exist"),
        pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(), pos.getEndColumnNum());
  }

  private static String likeClause(SqlNode like, boolean not) {
    if (like == null) {
      return "";
    }
    String pattern = ((SqlLiteral) like).getValueAs(String.class);
    return " WHERE \"name\"" + (not ? " NOT" : "") + " LIKE " + quote(pattern);
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  private static SqlNode query(String sql) {
    try {
      return SqlParser.create(sql, SqlParser.config()
          .withParserFactory(TravertineSqlParserImpl.FACTORY)
          .withUnquotedCasing(Casing.UNCHANGED)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(false)).parseQuery();
    } catch (SqlParseException e) {
      throw new IllegalStateException("internal: cannot parse " + sql + ": " + e.getMessage(), e);
    }
  }
}
