package dev.travertine.calcite.ddl;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/** Parse tree for {@code OPTIMIZE TABLE name [FINAL]} (kind OTHER_DDL). */
public class SqlOptimizeTable extends SqlDdl {
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("OPTIMIZE TABLE", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... o) {
          return new SqlOptimizeTable(pos, (SqlIdentifier) Objects.requireNonNull(o[0]),
              ((SqlLiteral) Objects.requireNonNull(o[1])).booleanValue());
        }
      };

  public final SqlIdentifier table;
  /** Whether FINAL was given (merge down to one part per partition). */
  public final boolean isFinal;

  public SqlOptimizeTable(SqlParserPos pos, SqlIdentifier table, boolean isFinal) {
    super(OPERATOR, pos);
    this.table = Objects.requireNonNull(table, "table");
    this.isFinal = isFinal;
  }

  /** Operands: table, isFinal (as a boolean literal). */
  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(table, SqlLiteral.createBoolean(isFinal, SqlParserPos.ZERO));
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("OPTIMIZE TABLE");
    table.unparse(writer, 0, 0);
    if (isFinal) {
      writer.keyword("FINAL");
    }
  }
}
