package dev.travertine.calcite.ddl;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDrop;
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

/** Parse tree for {@code DROP INDEX [IF EXISTS] name [ON table]}. */
public class SqlDropIndex extends SqlDrop {
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... o) {
          return new SqlDropIndex(pos,
              ((SqlLiteral) Objects.requireNonNull(o[0])).booleanValue(),
              (SqlIdentifier) Objects.requireNonNull(o[1]), (SqlIdentifier) o[2]);
        }
      };

  public final SqlIdentifier name;
  /** The table of {@code ON table}, or null. */
  public final @Nullable SqlIdentifier table;

  public SqlDropIndex(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
      @Nullable SqlIdentifier table) {
    super(OPERATOR, pos, ifExists);
    this.name = Objects.requireNonNull(name, "name");
    this.table = table;
  }

  /** Operands: ifExists (as a boolean literal), name, table. */
  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(SqlLiteral.createBoolean(ifExists, SqlParserPos.ZERO),
        name, table);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DROP INDEX");
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, 0, 0);
    if (table != null) {
      writer.keyword("ON");
      table.unparse(writer, 0, 0);
    }
  }
}
