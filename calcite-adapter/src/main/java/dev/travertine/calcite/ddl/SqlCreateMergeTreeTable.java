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

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Parse tree for {@code CREATE TABLE} with the MergeTree clauses ENGINE, PARTITION BY, ORDER BY,
 * PRIMARY KEY and SETTINGS, and an optional {@code AS query}.
 */
public class SqlCreateMergeTreeTable extends SqlCreate {
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... o) {
          return new SqlCreateMergeTreeTable(pos,
              ((SqlLiteral) Objects.requireNonNull(o[0])).booleanValue(),
              ((SqlLiteral) Objects.requireNonNull(o[1])).booleanValue(),
              (SqlIdentifier) Objects.requireNonNull(o[2]), (SqlNodeList) o[3],
              (SqlIdentifier) o[4], o[5], (SqlNodeList) o[6], (SqlNodeList) o[7],
              (SqlNodeList) o[8], o[9]);
        }
      };

  public final SqlIdentifier name;
  /** Columns ({@code SqlColumnDeclaration}, or a bare {@code SqlIdentifier} for
   * {@code CREATE TABLE t (a, b) AS ...}) and constraints ({@code SqlKeyConstraint},
   * {@code SqlCheckConstraint}); null if there is no column list. */
  public final @Nullable SqlNodeList columnList;
  /** Engine name, e.g. {@code MergeTree}; null if there is no ENGINE clause. */
  public final @Nullable SqlIdentifier engine;
  /** The PARTITION BY expression, or null. */
  public final @Nullable SqlNode partitionBy;
  /** The sorting key; empty for {@code ORDER BY tuple()}; null if there is no ORDER BY. */
  public final @Nullable SqlNodeList orderBy;
  /** The ClickHouse PRIMARY KEY clause (not a column constraint), or null. */
  public final @Nullable SqlNodeList primaryKey;
  /** {@link SqlTableOption} elements of the SETTINGS clause, or null. */
  public final @Nullable SqlNodeList settings;
  /** The query of {@code AS query}, or null. */
  public final @Nullable SqlNode query;

  public SqlCreateMergeTreeTable(SqlParserPos pos, boolean replace, boolean ifNotExists,
      SqlIdentifier name, @Nullable SqlNodeList columnList, @Nullable SqlIdentifier engine,
      @Nullable SqlNode partitionBy, @Nullable SqlNodeList orderBy,
      @Nullable SqlNodeList primaryKey, @Nullable SqlNodeList settings,
      @Nullable SqlNode query) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = Objects.requireNonNull(name, "name");
    this.columnList = columnList;
    this.engine = engine;
    this.partitionBy = partitionBy;
    this.orderBy = orderBy;
    this.primaryKey = primaryKey;
    this.settings = settings;
    this.query = query;
  }

  /** Operands: replace and ifNotExists (as boolean literals), name, columnList, engine,
   * partitionBy, orderBy, primaryKey, settings, query. */
  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.copyOf(
        Arrays.asList(SqlLiteral.createBoolean(getReplace(), SqlParserPos.ZERO),
            SqlLiteral.createBoolean(ifNotExists, SqlParserPos.ZERO), name, columnList,
            engine, partitionBy, orderBy, primaryKey, settings, query));
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (getReplace()) {
      writer.keyword("OR REPLACE");
    }
    writer.keyword("TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (columnList != null) {
      unparseList(writer, columnList);
    }
    if (engine != null) {
      writer.keyword("ENGINE");
      writer.keyword("=");
      engine.unparse(writer, 0, 0);
    }
    if (partitionBy != null) {
      writer.keyword("PARTITION BY");
      partitionBy.unparse(writer, 0, 0);
    }
    if (orderBy != null) {
      writer.keyword("ORDER BY");
      unparseKey(writer, orderBy);
    }
    if (primaryKey != null) {
      writer.keyword("PRIMARY KEY");
      unparseKey(writer, primaryKey);
    }
    if (settings != null) {
      writer.keyword("SETTINGS");
      final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.SIMPLE);
      for (SqlNode setting : settings) {
        writer.sep(",");
        setting.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    if (query != null) {
      writer.keyword("AS");
      writer.newlineAndIndent();
      query.unparse(writer, 0, 0);
    }
  }

  /** Writes a key as {@code expr}, {@code (expr, ...)} or {@code tuple()}. */
  static void unparseKey(SqlWriter writer, SqlNodeList key) {
    if (key.isEmpty()) {
      writer.keyword("tuple()");
    } else if (key.size() == 1) {
      key.get(0).unparse(writer, 0, 0);
    } else {
      unparseList(writer, key);
    }
  }

  /** Writes {@code (a, b, ...)}. */
  static void unparseList(SqlWriter writer, SqlNodeList list) {
    final SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode node : list) {
      writer.sep(",");
      node.unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }
}
