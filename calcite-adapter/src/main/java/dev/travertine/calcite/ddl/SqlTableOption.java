package dev.travertine.calcite.ddl;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/** One {@code name = value} entry of the SETTINGS clause of {@link SqlCreateMergeTreeTable}. */
public class SqlTableOption extends SqlCall {
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("TABLE_OPTION", SqlKind.OTHER) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          return new SqlTableOption(pos, (SqlIdentifier) operands[0],
              Objects.requireNonNull(operands[1], "value"));
        }
      };

  public final SqlIdentifier name;
  /** A literal or an identifier. */
  public final SqlNode value;

  public SqlTableOption(SqlParserPos pos, SqlIdentifier name, SqlNode value) {
    super(pos);
    this.name = Objects.requireNonNull(name, "name");
    this.value = Objects.requireNonNull(value, "value");
  }

  public SqlTableOption(SqlIdentifier name, SqlNode value) {
    this(name.getParserPosition().plus(value.getParserPosition()), name, value);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, value);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    name.unparse(writer, 0, 0);
    writer.keyword("=");
    value.unparse(writer, 0, 0);
  }
}
