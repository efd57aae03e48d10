package dev.travertine.calcite.ddl;

import java.util.List;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code KILL QUERY WHERE condition}: cancels running queries (condition over system.processes);
 * {@code KILL MUTATION WHERE condition}: kills unfinished mutations (condition over system.mutations).
 */
public final class SqlKillQuery extends SqlDdl {
  public static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("KILL QUERY", SqlKind.OTHER_DDL);

  public final SqlNode condition;
  public final boolean mutation;

  public SqlKillQuery(SqlParserPos pos, SqlNode condition, boolean mutation) {
    super(OPERATOR, pos);
    this.condition = condition;
    this.mutation = mutation;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(condition);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(mutation ? "KILL MUTATION WHERE" : "KILL QUERY WHERE");
    condition.unparse(writer, 0, 0);
  }
}
