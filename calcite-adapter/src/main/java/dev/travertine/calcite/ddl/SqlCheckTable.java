package dev.travertine.calcite.ddl;

import java.util.List;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CHECK TABLE name} (ClickHouse's statement) parses into the query
 * {@code SELECT * FROM TABLE(check_table('name'))}, so it returns its rows like any SELECT.
 */
public final class SqlCheckTable {
  /** The table function that does the work (registered in the Travertine schema). */
  public static final String FUNCTION = "check_table";

  private SqlCheckTable() {}

  public static SqlSelect query(SqlParserPos pos, SqlIdentifier table) {
    List<String> names = table.names;
    String name = names.size() == 2 && names.get(0).equalsIgnoreCase("travertine") ? names.get(1)
        : String.join(".", names);
    SqlNode call = new SqlUnresolvedFunction(new SqlIdentifier(FUNCTION, pos), null, null, null, null,
        SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION).createCall(pos, SqlLiteral.createCharString(name, pos));
    SqlNode from = SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, call);
    return new SqlSelect(pos, null, SqlNodeList.of(SqlIdentifier.star(pos)), from, null, null, null, null, null,
        null, null, null, null);
  }
}
