package dev.travertine.calcite.ddl;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * Parse tree for the ClickHouse mutations {@code ALTER TABLE t UPDATE c = e, ... WHERE cond}
 * and {@code ALTER TABLE t DELETE WHERE cond} (kind ALTER_TABLE, which is in SqlKind.DDL).
 */
public class SqlAlterTableMutation extends SqlDdl {
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... o) {
          return new SqlAlterTableMutation(pos, (SqlIdentifier) Objects.requireNonNull(o[0]),
              ((SqlLiteral) Objects.requireNonNull(o[1])).booleanValue(),
              (SqlNodeList) Objects.requireNonNull(o[2]),
              (SqlNodeList) Objects.requireNonNull(o[3]), Objects.requireNonNull(o[4]));
        }
      };

  public final SqlIdentifier table;
  /** True for {@code DELETE WHERE}, false for {@code UPDATE ... WHERE}. */
  public final boolean delete;
  /** Updated columns ({@code SqlIdentifier}); empty for DELETE. */
  public final SqlNodeList targetColumns;
  /** New values, one per target column; empty for DELETE. */
  public final SqlNodeList sourceExpressions;
  /** The WHERE condition (ClickHouse requires one). */
  public final SqlNode condition;

  public SqlAlterTableMutation(SqlParserPos pos, SqlIdentifier table, boolean delete,
      SqlNodeList targetColumns, SqlNodeList sourceExpressions, SqlNode condition) {
    super(OPERATOR, pos);
    this.table = Objects.requireNonNull(table, "table");
    this.delete = delete;
    this.targetColumns = Objects.requireNonNull(targetColumns, "targetColumns");
    this.sourceExpressions = Objects.requireNonNull(sourceExpressions, "sourceExpressions");
    this.condition = Objects.requireNonNull(condition, "condition");
    if (targetColumns.size() != sourceExpressions.size()) {
      throw new IllegalArgumentException("targetColumns and sourceExpressions differ in size");
    }
    if (delete && !targetColumns.isEmpty()) {
      throw new IllegalArgumentException("DELETE has no target columns");
    }
  }

  /** Operands: table, delete (as a boolean literal), targetColumns, sourceExpressions,
   * condition. */
  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(table, SqlLiteral.createBoolean(delete, SqlParserPos.ZERO),
        targetColumns, sourceExpressions, condition);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ALTER TABLE");
    table.unparse(writer, 0, 0);
    if (delete) {
      writer.keyword("DELETE");
    } else {
      writer.keyword("UPDATE");
      final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.SIMPLE);
      for (int i = 0; i < targetColumns.size(); i++) {
        writer.sep(",");
        targetColumns.get(i).unparse(writer, 0, 0);
        writer.keyword("=");
        sourceExpressions.get(i).unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    writer.keyword("WHERE");
    condition.unparse(writer, 0, 0);
  }
}
