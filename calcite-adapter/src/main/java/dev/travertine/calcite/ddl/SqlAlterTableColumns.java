package dev.travertine.calcite.ddl;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code ALTER TABLE t ADD COLUMN …, DROP COLUMN …, RENAME COLUMN a TO b, MODIFY COLUMN …}
 * (ClickHouse's column ALTERs; several comma-separated actions run as one change).
 */
public final class SqlAlterTableColumns extends SqlDdl {
  public static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);

  /** What one action does. */
  public enum Kind { ADD, DROP, RENAME, MODIFY }

  /**
   * One action. {@code other} is the new name (RENAME) or the column to add after (ADD … AFTER);
   * {@code nullable} is null when not stated; {@code ifExists} means IF [NOT] EXISTS.
   */
  public record Action(SqlParserPos pos, Kind kind, SqlIdentifier name, @Nullable SqlIdentifier other,
      @Nullable SqlDataTypeSpec type, @Nullable Boolean nullable, @Nullable SqlNode defaultValue,
      boolean ifExists, boolean first) {}

  public final SqlIdentifier table;
  public final List<Action> actions;

  public SqlAlterTableColumns(SqlParserPos pos, SqlIdentifier table, List<Action> actions) {
    super(OPERATOR, pos);
    this.table = Objects.requireNonNull(table, "table");
    this.actions = List.copyOf(actions);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(table);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ALTER TABLE");
    table.unparse(writer, 0, 0);
    String sep = "";
    for (Action a : actions) {
      writer.print(sep);
      sep = ", ";
      writer.keyword(a.kind().name());
      writer.keyword("COLUMN");
      if (a.ifExists()) {
        writer.keyword(a.kind() == Kind.ADD ? "IF NOT EXISTS" : "IF EXISTS");
      }
      a.name().unparse(writer, 0, 0);
      if (a.kind() == Kind.RENAME) {
        writer.keyword("TO");
        Objects.requireNonNull(a.other()).unparse(writer, 0, 0);
      }
      if (a.type() != null) {
        a.type().unparse(writer, 0, 0);
      }
      if (Boolean.FALSE.equals(a.nullable())) {
        writer.keyword("NOT NULL");
      }
      if (a.defaultValue() != null) {
        writer.keyword("DEFAULT");
        a.defaultValue().unparse(writer, 0, 0);
      }
      if (a.first()) {
        writer.keyword("FIRST");
      } else if (a.kind() == Kind.ADD && a.other() != null) {
        writer.keyword("AFTER");
        a.other().unparse(writer, 0, 0);
      }
    }
  }
}
