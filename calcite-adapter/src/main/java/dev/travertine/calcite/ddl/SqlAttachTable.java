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

/**
 * Parse tree for {@code ATTACH TABLE [IF NOT EXISTS] name FROM 'location'} (kind OTHER_DDL): a
 * table another node writes, attached read-only from its storage.
 */
public class SqlAttachTable extends SqlDdl {
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("ATTACH TABLE", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... o) {
          return new SqlAttachTable(pos, (SqlIdentifier) Objects.requireNonNull(o[0]),
              ((SqlLiteral) Objects.requireNonNull(o[1])).getValueAs(String.class),
              ((SqlLiteral) Objects.requireNonNull(o[2])).booleanValue());
        }
      };

  public final SqlIdentifier table;
  /** The table's storage directory: {@code <storage>/tables/<uuid>} (system.tables.data_path on its writer). */
  public final String location;
  public final boolean ifNotExists;

  public SqlAttachTable(SqlParserPos pos, SqlIdentifier table, String location, boolean ifNotExists) {
    super(OPERATOR, pos);
    this.table = Objects.requireNonNull(table, "table");
    this.location = Objects.requireNonNull(location, "location");
    this.ifNotExists = ifNotExists;
  }

  /** Operands: table, location, ifNotExists (literals). */
  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(table, SqlLiteral.createCharString(location, SqlParserPos.ZERO),
        SqlLiteral.createBoolean(ifNotExists, SqlParserPos.ZERO));
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ATTACH TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    table.unparse(writer, 0, 0);
    writer.keyword("FROM");
    writer.literal("'" + location.replace("'", "''") + "'");
  }
}
