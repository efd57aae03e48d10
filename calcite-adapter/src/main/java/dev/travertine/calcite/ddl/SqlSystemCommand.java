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
 * Parse tree for {@code SYSTEM FLUSH [TABLE name]}, {@code SYSTEM STOP MERGES [name]},
 * {@code SYSTEM START MERGES [name]} and {@code SYSTEM DROP UNCOMPRESSED CACHE} (kind OTHER_DDL).
 */
public class SqlSystemCommand extends SqlDdl {
  /** Which SYSTEM command. */
  public enum Kind {
    FLUSH("FLUSH"),
    STOP_MERGES("STOP MERGES"),
    START_MERGES("START MERGES"),
    /** Empties the decoded-column cache ({@code use_uncompressed_cache}) of the whole engine. */
    DROP_UNCOMPRESSED_CACHE("DROP UNCOMPRESSED CACHE");

    /** The SQL words after SYSTEM. */
    public final String sql;

    Kind(String sql) {
      this.sql = sql;
    }
  }

  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("SYSTEM", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... o) {
          return new SqlSystemCommand(pos,
              ((SqlLiteral) Objects.requireNonNull(o[0])).symbolValue(Kind.class),
              (SqlIdentifier) o[1]);
        }
      };

  /** The command (not to be confused with {@link #getKind()}, which is OTHER_DDL). */
  public final Kind kind;
  /** The table, or null for all tables. */
  public final @Nullable SqlIdentifier table;

  public SqlSystemCommand(SqlParserPos pos, Kind kind, @Nullable SqlIdentifier table) {
    super(OPERATOR, pos);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.table = table;
  }

  /** Operands: kind (as a symbol literal), table. */
  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(SqlLiteral.createSymbol(kind, SqlParserPos.ZERO), table);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SYSTEM");
    writer.keyword(kind.sql);
    if (table != null) {
      if (kind == Kind.FLUSH) {
        writer.keyword("TABLE");
      }
      table.unparse(writer, 0, 0);
    }
  }
}
