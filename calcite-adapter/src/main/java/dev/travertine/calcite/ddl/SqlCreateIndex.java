package dev.travertine.calcite.ddl;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCreate;
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

/** Parse tree for {@code CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (col [DESC], ...)}. */
public class SqlCreateIndex extends SqlCreate {
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... o) {
          return new SqlCreateIndex(pos,
              ((SqlLiteral) Objects.requireNonNull(o[0])).booleanValue(),
              ((SqlLiteral) Objects.requireNonNull(o[1])).booleanValue(),
              (SqlIdentifier) Objects.requireNonNull(o[2]),
              (SqlIdentifier) Objects.requireNonNull(o[3]),
              (SqlNodeList) Objects.requireNonNull(o[4]));
        }
      };

  public final boolean unique;
  public final SqlIdentifier name;
  public final SqlIdentifier table;
  /** Each element is a column {@code SqlIdentifier}, or a {@code DESC} call on one. */
  public final SqlNodeList columns;

  public SqlCreateIndex(SqlParserPos pos, boolean unique, boolean ifNotExists,
      SqlIdentifier name, SqlIdentifier table, SqlNodeList columns) {
    super(OPERATOR, pos, false, ifNotExists);
    this.unique = unique;
    this.name = Objects.requireNonNull(name, "name");
    this.table = Objects.requireNonNull(table, "table");
    this.columns = Objects.requireNonNull(columns, "columns");
  }

  /** Operands: unique and ifNotExists (as boolean literals), name, table, columns. */
  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(SqlLiteral.createBoolean(unique, SqlParserPos.ZERO),
        SqlLiteral.createBoolean(ifNotExists, SqlParserPos.ZERO), name, table, columns);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (unique) {
      writer.keyword("UNIQUE");
    }
    writer.keyword("INDEX");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    writer.keyword("ON");
    table.unparse(writer, 0, 0);
    SqlCreateMergeTreeTable.unparseList(writer, columns);
  }
}
