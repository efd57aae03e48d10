package dev.travertine.calcite.parser;

import dev.travertine.calcite.ddl.SqlAlterTableColumns;
import dev.travertine.calcite.ddl.SqlAlterTableMutation;
import dev.travertine.calcite.ddl.SqlCreateIndex;
import dev.travertine.calcite.ddl.SqlCreateMergeTreeTable;
import dev.travertine.calcite.ddl.SqlDropIndex;
import dev.travertine.calcite.ddl.SqlOptimizeTable;
import dev.travertine.calcite.ddl.SqlSystemCommand;
import dev.travertine.calcite.ddl.SqlTableOption;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.ddl.SqlDropView;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.ddl.SqlTruncateTable;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link TravertineSqlParserImpl}. */
class TravertineParserTest {

  private static SqlParser.Config config(SqlConformanceEnum conformance) {
    return SqlParser.config()
        .withParserFactory(TravertineSqlParserImpl.FACTORY)
        .withUnquotedCasing(Casing.UNCHANGED)
        .withQuotedCasing(Casing.UNCHANGED)
        .withConformance(conformance);
  }

  private static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, config(SqlConformanceEnum.DEFAULT)).parseStmt();
  }

  private static SqlNode parseBabel(String sql) throws SqlParseException {
    return SqlParser.create(sql, config(SqlConformanceEnum.BABEL)).parseStmt();
  }

  private static <T> T parseAs(String sql, Class<T> clazz) throws SqlParseException {
    final SqlNode node = parse(sql);
    assertInstanceOf(clazz, node, () -> sql + " -> " + node.getClass());
    // Every statement must survive unparse + parse with the same text.
    final String unparsed = unparse(node);
    final SqlNode again = parse(unparsed);
    assertEquals(unparsed, unparse(again), () -> "round trip of " + sql);
    assertInstanceOf(clazz, again);
    return clazz.cast(node);
  }

  private static String unparse(SqlNode node) {
    return node.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
  }

  private static void assertFails(String sql) {
    assertThrows(SqlParseException.class, () -> parse(sql), sql);
  }

  private static String name(SqlNode node) {
    return ((SqlIdentifier) node).toString();
  }

  // ---------------------------------------------------------------- CREATE TABLE

  @Test void createTableClickHouseStyle() throws Exception {
    final SqlCreateMergeTreeTable t = parseAs(
        "CREATE TABLE IF NOT EXISTS db.hits (\n"
            + "  CounterID INT NOT NULL,\n"
            + "  EventDate DATE,\n"
            + "  UserID BIGINT DEFAULT 0,\n"
            + "  URL VARCHAR\n"
            + ") ENGINE = MergeTree()\n"
            + "PARTITION BY EXTRACT(YEAR FROM EventDate)\n"
            + "ORDER BY (CounterID, EventDate)\n"
            + "PRIMARY KEY CounterID\n"
            + "SETTINGS index_granularity = 8192, storage_policy = 'default',"
            + " compress = lz4",
        SqlCreateMergeTreeTable.class);
    assertTrue(t.ifNotExists);
    assertFalse(t.getReplace());
    assertEquals(SqlKind.CREATE_TABLE, t.getKind());
    assertTrue(t.getKind().belongsTo(SqlKind.DDL));
    assertEquals(List.of("db", "hits"), t.name.names);
    assertNotNull(t.engine);
    assertEquals("MergeTree", t.engine.getSimple());
    assertNotNull(t.partitionBy);
    assertEquals(SqlKind.EXTRACT, t.partitionBy.getKind());
    assertNotNull(t.orderBy);
    assertEquals(2, t.orderBy.size());
    assertEquals("CounterID", name(t.orderBy.get(0)));
    assertEquals("EventDate", name(t.orderBy.get(1)));
    assertNotNull(t.primaryKey);
    assertEquals(1, t.primaryKey.size());
    assertEquals("CounterID", name(t.primaryKey.get(0)));
    assertNull(t.query);

    assertNotNull(t.columnList);
    assertEquals(4, t.columnList.size());
    final SqlColumnDeclaration counterId = (SqlColumnDeclaration) t.columnList.get(0);
    assertEquals("CounterID", counterId.name.getSimple());
    assertEquals(Boolean.FALSE, counterId.dataType.getNullable());
    assertEquals(ColumnStrategy.NOT_NULLABLE, counterId.strategy);
    final SqlColumnDeclaration eventDate = (SqlColumnDeclaration) t.columnList.get(1);
    assertEquals(Boolean.TRUE, eventDate.dataType.getNullable());
    assertEquals(ColumnStrategy.NULLABLE, eventDate.strategy);
    final SqlColumnDeclaration userId = (SqlColumnDeclaration) t.columnList.get(2);
    assertEquals(ColumnStrategy.DEFAULT, userId.strategy);
    assertEquals(BigDecimal.ZERO,
        ((SqlLiteral) userId.expression).getValueAs(BigDecimal.class));

    assertNotNull(t.settings);
    assertEquals(3, t.settings.size());
    final SqlTableOption granularity = (SqlTableOption) t.settings.get(0);
    assertEquals("index_granularity", granularity.name.getSimple());
    assertEquals(8192, ((SqlLiteral) granularity.value).intValue(true));
    final SqlTableOption policy = (SqlTableOption) t.settings.get(1);
    assertEquals("storage_policy", policy.name.getSimple());
    assertEquals("default", ((SqlLiteral) policy.value).getValueAs(String.class));
    final SqlTableOption compress = (SqlTableOption) t.settings.get(2);
    assertEquals("lz4", name(compress.value));
  }

  @Test void createTableClausesInAnyOrder() throws Exception {
    final SqlCreateMergeTreeTable t = parseAs(
        "create table t (a int, b varchar(10)) settings x = 1 order by a "
            + "partition by b primary key (a) engine MergeTree",
        SqlCreateMergeTreeTable.class);
    assertEquals("MergeTree", t.engine.getSimple());
    assertEquals(1, t.orderBy.size());
    assertEquals("b", name(t.partitionBy));
    assertEquals(1, t.primaryKey.size());
    assertEquals(1, t.settings.size());
  }

  @Test void createTableMinimal() throws Exception {
    final SqlCreateMergeTreeTable t =
        parseAs("CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER)",
            SqlCreateMergeTreeTable.class);
    assertFalse(t.ifNotExists);
    assertEquals(3, t.columnList.size());
    assertNull(t.engine);
    assertNull(t.orderBy);
    assertNull(t.partitionBy);
    assertNull(t.primaryKey);
    assertNull(t.settings);
    assertNull(t.query);
  }

  @Test void createTableOrderByTuple() throws Exception {
    for (String key : List.of("tuple()", "TUPLE()", "()")) {
      final SqlCreateMergeTreeTable t = parseAs(
          "CREATE TABLE t (a INT) ENGINE = MergeTree ORDER BY " + key,
          SqlCreateMergeTreeTable.class);
      assertNotNull(t.orderBy, key);
      assertTrue(t.orderBy.isEmpty(), key);
    }
    final SqlCreateMergeTreeTable t = parseAs(
        "CREATE TABLE t (a INT, b INT) ORDER BY tuple(a, b)", SqlCreateMergeTreeTable.class);
    assertEquals(2, t.orderBy.size());
  }

  @Test void createTableOrderByExpressions() throws Exception {
    final SqlCreateMergeTreeTable t = parseAs(
        "CREATE TABLE t (a INT, b INT, d DATE) ORDER BY (a + 1, FLOOR(d TO MONTH), b)",
        SqlCreateMergeTreeTable.class);
    assertEquals(3, t.orderBy.size());
    assertEquals(SqlKind.PLUS, t.orderBy.get(0).getKind());
    final SqlCreateMergeTreeTable single = parseAs(
        "CREATE TABLE t (a INT, b INT) ORDER BY (a)", SqlCreateMergeTreeTable.class);
    assertEquals(1, single.orderBy.size());
    assertEquals("a", name(single.orderBy.get(0)));
  }

  @Test void createTableConstraints() throws Exception {
    final SqlCreateMergeTreeTable t = parseAs(
        "CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, "
            + "col2 TEXT, col3 INTEGER UNIQUE, "
            + "CONSTRAINT u1 UNIQUE (col0, col1), CHECK (col0 > 0))",
        SqlCreateMergeTreeTable.class);
    final SqlNodeList cols = t.columnList;
    // pk, PRIMARY KEY(pk), col0, col1, col2, col3, UNIQUE(col3), u1, CHECK
    assertEquals(9, cols.size());
    assertInstanceOf(SqlColumnDeclaration.class, cols.get(0));
    final SqlKeyConstraint pk = (SqlKeyConstraint) cols.get(1);
    assertEquals(SqlKind.PRIMARY_KEY, pk.getKind());
    assertEquals("pk", name(((SqlNodeList) pk.getOperandList().get(1)).get(0)));
    assertInstanceOf(SqlColumnDeclaration.class, cols.get(4)); // col2 TEXT
    final SqlKeyConstraint u3 = (SqlKeyConstraint) cols.get(6);
    assertEquals(SqlKind.UNIQUE, u3.getKind());
    final SqlKeyConstraint u1 = (SqlKeyConstraint) cols.get(7);
    assertEquals(SqlKind.UNIQUE, u1.getKind());
    assertEquals("u1", name(u1.getOperandList().get(0)));
    assertEquals(2, ((SqlNodeList) u1.getOperandList().get(1)).size());
    assertEquals(SqlKind.CHECK, cols.get(8).getKind());

    final SqlCreateMergeTreeTable t2 = parseAs(
        "CREATE TABLE t2 (a INT NOT NULL DEFAULT 1, b INT DEFAULT 2 NOT NULL, c INT NULL, "
            + "PRIMARY KEY (a, b))",
        SqlCreateMergeTreeTable.class);
    final SqlColumnDeclaration a = (SqlColumnDeclaration) t2.columnList.get(0);
    final SqlColumnDeclaration b = (SqlColumnDeclaration) t2.columnList.get(1);
    assertEquals(Boolean.FALSE, a.dataType.getNullable());
    assertEquals(ColumnStrategy.DEFAULT, a.strategy);
    assertEquals(Boolean.FALSE, b.dataType.getNullable());
    assertEquals(ColumnStrategy.DEFAULT, b.strategy);
    assertEquals(SqlKind.PRIMARY_KEY, t2.columnList.get(3).getKind());
  }

  @Test void createTableAsSelect() throws Exception {
    final SqlCreateMergeTreeTable t = parseAs(
        "CREATE TABLE t2 ENGINE = MergeTree ORDER BY a AS SELECT a, b FROM t1 WHERE a > 1",
        SqlCreateMergeTreeTable.class);
    assertNull(t.columnList);
    assertEquals("MergeTree", t.engine.getSimple());
    assertEquals(1, t.orderBy.size());
    assertNotNull(t.query);
    assertEquals(SqlKind.SELECT, t.query.getKind());

    final SqlCreateMergeTreeTable t3 =
        parseAs("CREATE TABLE t3 (x, y) AS VALUES (1, 2)", SqlCreateMergeTreeTable.class);
    assertEquals(2, t3.columnList.size());
    assertInstanceOf(SqlIdentifier.class, t3.columnList.get(0));
    assertNotNull(t3.query);

    final SqlCreateMergeTreeTable t4 =
        parseAs("CREATE OR REPLACE TABLE t4 AS SELECT 1 AS x", SqlCreateMergeTreeTable.class);
    assertTrue(t4.getReplace());
  }

  @Test void keywordsStayUsableAsNames() throws Exception {
    final SqlCreateMergeTreeTable t = parseAs(
        "CREATE TABLE engine (engine VARCHAR, settings INT, final INT, \"index\" INT, "
            + "\"partition\" INT, optimize INT, flush INT, stop INT, merges INT, \"if\" INT, "
            + "index INT) ORDER BY (engine, settings)",
        SqlCreateMergeTreeTable.class);
    assertEquals("engine", t.name.getSimple());
    assertEquals(11, t.columnList.size());
    parse("SELECT engine, settings, final, index, optimize, flush, stop, merges "
        + "FROM engine WHERE settings = 1");
    parse("SELECT \"partition\" FROM t");
    parse("SELECT IF(a > 1, 1, 0) FROM t");
    parse("CREATE TABLE if (a INT)");
  }

  @Test void createTableSerializesBack() throws Exception {
    final SqlNode node = parse("CREATE TABLE t (a INT NOT NULL PRIMARY KEY, b INT DEFAULT 3) "
        + "ENGINE = MergeTree() PARTITION BY b ORDER BY (a, b) PRIMARY KEY a "
        + "SETTINGS index_granularity = 8192 AS SELECT 1, 2");
    final String sql = unparse(node);
    assertEquals("CREATE TABLE \"t\" (\"a\" INTEGER NOT NULL, PRIMARY KEY (\"a\"), "
        + "\"b\" INTEGER DEFAULT (3)) ENGINE = \"MergeTree\" PARTITION BY \"b\" "
        + "ORDER BY (\"a\", \"b\") PRIMARY KEY \"a\" SETTINGS \"index_granularity\" = 8192 AS\n"
        + "SELECT 1, 2", sql);
    final String empty = unparse(parse("CREATE TABLE t (a INT) ORDER BY tuple()"));
    assertEquals("CREATE TABLE \"t\" (\"a\" INTEGER) ORDER BY TUPLE()", empty);
  }

  @Test void createTableNodeCanBeCopied() throws Exception {
    final SqlCreateMergeTreeTable t = (SqlCreateMergeTreeTable) parse(
        "CREATE TABLE t (a INT) ENGINE = MergeTree ORDER BY a SETTINGS x = 1");
    final SqlNode copy = t.clone(t.getParserPosition());
    assertInstanceOf(SqlCreateMergeTreeTable.class, copy);
    assertTrue(t.equalsDeep(copy, org.apache.calcite.util.Litmus.THROW));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "CREATE TABLE t (a INT) ORDER BY",
      "CREATE TABLE t (a INT) ENGINE",
      "CREATE TABLE t (a INT) ENGINE =",
      "CREATE TABLE t (a INT) ENGINE = MergeTree ENGINE = Log",
      "CREATE TABLE t (a INT) ORDER BY a ORDER BY a",
      "CREATE TABLE t (a INT) SETTINGS",
      "CREATE TABLE t (a INT) SETTINGS x",
      "CREATE TABLE t (a INT) SETTINGS x = ",
      "CREATE TABLE t (a INT) PARTITION a",
      "CREATE TABLE t (a INT) PRIMARY KEY",
      "CREATE TABLE t",
      "CREATE TABLE t ENGINE = MergeTree ORDER BY a",
      "CREATE TABLE t ()",
      "CREATE TABLE t (a INT,)",
      "CREATE TABLE t (a INT) AS",
      "CREATE OR REPLACE INDEX i ON t (a)",
      "CREATE INDEX i ON t",
      "CREATE INDEX i ON t ()",
      "DROP INDEX",
      "ALTER TABLE t UPDATE a = 1",
      "ALTER TABLE t DELETE",
      "ALTER TABLE t UPDATE WHERE a = 1",
      "ALTER TABLE t ADD COLUMN c",
      "ALTER TABLE t RENAME COLUMN a",
      "ALTER TABLE t MODIFY COLUMN a",
      "ALTER TABLE t ADD COLUMN c INT AFTER",
      "KILL MUTATION",
      "OPTIMIZE t",
      "OPTIMIZE TABLE",
      "SYSTEM FLUSH t",
      "SYSTEM STOP t",
      "SYSTEM MERGES",
      "SYSTEM DROP MARK CACHE",
      "SYSTEM DROP UNCOMPRESSED",
      "TRUNCATE t",
      "DROP TABLE t CASCADE RESTRICT",
  })
  void badInput(String sql) {
    assertFails(sql);
  }

  @Test void duplicateClauseMessage() {
    final SqlParseException e = assertThrows(SqlParseException.class,
        () -> parse("CREATE TABLE t (a INT) ORDER BY a\nORDER BY a"));
    assertTrue(e.getMessage().contains("Duplicate ORDER BY clause"), e.getMessage());
    assertEquals(2, e.getPos().getLineNum());
  }

  // ---------------------------------------------------------------- views, drops, truncate

  @Test void createView() throws Exception {
    final SqlCreateView v =
        parseAs("CREATE VIEW view_1 AS SELECT pk, col0 FROM tab0 WHERE col0 = 49",
            SqlCreateView.class);
    assertEquals("view_1", v.name.getSimple());
    assertNull(v.columnList);
    assertFalse(v.getReplace());
    final SqlCreateView v2 =
        parseAs("CREATE OR REPLACE VIEW v (x, y) AS SELECT 1, 2", SqlCreateView.class);
    assertTrue(v2.getReplace());
    assertEquals(2, v2.columnList.size());
  }

  @Test void dropTableAndView() throws Exception {
    final SqlDropTable d = parseAs("DROP TABLE t1", SqlDropTable.class);
    assertFalse(d.ifExists);
    assertEquals("t1", d.name.getSimple());
    assertTrue(parseAs("DROP TABLE IF EXISTS s.t1 CASCADE", SqlDropTable.class).ifExists);
    parseAs("DROP TABLE t1 RESTRICT", SqlDropTable.class);
    final SqlDropView v = parseAs("DROP VIEW IF EXISTS view_1 CASCADE", SqlDropView.class);
    assertTrue(v.ifExists);
    assertEquals("view_1", v.name.getSimple());
    parseAs("DROP VIEW view_1", SqlDropView.class);
  }

  @Test void truncateTable() throws Exception {
    final SqlTruncateTable t = parseAs("TRUNCATE TABLE t1", SqlTruncateTable.class);
    assertEquals("t1", t.name.getSimple());
    assertTrue(t.getKind().belongsTo(SqlKind.DDL));
    assertFalse(parseAs("TRUNCATE TABLE t1 RESTART IDENTITY", SqlTruncateTable.class)
        .continueIdentify);
  }

  // ---------------------------------------------------------------- indexes

  @Test void createIndex() throws Exception {
    final SqlCreateIndex i =
        parseAs("CREATE INDEX t1i0 ON t1(a1,b1 DESC)", SqlCreateIndex.class);
    assertFalse(i.unique);
    assertFalse(i.ifNotExists);
    assertEquals("t1i0", i.name.getSimple());
    assertEquals("t1", i.table.getSimple());
    assertEquals(2, i.columns.size());
    assertEquals("a1", name(i.columns.get(0)));
    assertEquals(SqlKind.DESCENDING, i.columns.get(1).getKind());
    assertEquals("b1", name(((SqlCall) i.columns.get(1)).operand(0)));
    assertEquals(SqlKind.CREATE_INDEX, i.getKind());
    assertTrue(i.getKind().belongsTo(SqlKind.DDL));

    final SqlCreateIndex u = parseAs("CREATE UNIQUE INDEX idx_tab0_0 ON tab0 (col0)",
        SqlCreateIndex.class);
    assertTrue(u.unique);
    assertEquals(1, u.columns.size());

    final SqlCreateIndex n = parseAs(
        "create unique index if not exists idx ON s.tab0 (col0 ASC, col1 desc, col2)",
        SqlCreateIndex.class);
    assertTrue(n.ifNotExists);
    assertEquals(List.of("s", "tab0"), n.table.names);
    assertEquals(3, n.columns.size());
    assertInstanceOf(SqlIdentifier.class, n.columns.get(0));
  }

  @Test void dropIndex() throws Exception {
    final SqlDropIndex d = parseAs("DROP INDEX t1i0", SqlDropIndex.class);
    assertFalse(d.ifExists);
    assertEquals("t1i0", d.name.getSimple());
    assertNull(d.table);
    assertEquals(SqlKind.DROP_INDEX, d.getKind());
    assertTrue(d.getKind().belongsTo(SqlKind.DDL));
    final SqlDropIndex d2 = parseAs("DROP INDEX IF EXISTS t1i0 ON t1", SqlDropIndex.class);
    assertTrue(d2.ifExists);
    assertEquals("t1", d2.table.getSimple());
  }

  // ---------------------------------------------------------------- mutations etc.

  @Test void alterTableUpdate() throws Exception {
    final SqlAlterTableMutation m = parseAs(
        "ALTER TABLE hits UPDATE a = a + 1, b = 'x' WHERE c > 10 AND d IN (1, 2)",
        SqlAlterTableMutation.class);
    assertFalse(m.delete);
    assertEquals("hits", m.table.getSimple());
    assertEquals(2, m.targetColumns.size());
    assertEquals("a", name(m.targetColumns.get(0)));
    assertEquals("b", name(m.targetColumns.get(1)));
    assertEquals(2, m.sourceExpressions.size());
    assertEquals(SqlKind.PLUS, m.sourceExpressions.get(0).getKind());
    assertEquals(SqlKind.AND, m.condition.getKind());
    assertTrue(m.getKind().belongsTo(SqlKind.DDL));
  }

  @Test void alterTableColumns() throws Exception {
    final SqlAlterTableColumns a = parseAs("ALTER TABLE t ADD COLUMN IF NOT EXISTS c BIGINT NOT NULL DEFAULT 7"
        + " AFTER b, DROP COLUMN IF EXISTS d, RENAME COLUMN e TO f, MODIFY COLUMN g VARCHAR, ADD h INT FIRST",
        SqlAlterTableColumns.class);
    assertEquals("t", a.table.getSimple());
    assertEquals(5, a.actions.size());
    final SqlAlterTableColumns.Action add = a.actions.get(0);
    assertEquals(SqlAlterTableColumns.Kind.ADD, add.kind());
    assertTrue(add.ifExists());
    assertEquals("c", add.name().getSimple());
    assertEquals(Boolean.FALSE, add.nullable());
    assertEquals("7", add.defaultValue().toString());
    assertEquals("b", add.other().getSimple());
    assertEquals(SqlAlterTableColumns.Kind.DROP, a.actions.get(1).kind());
    assertTrue(a.actions.get(1).ifExists());
    assertEquals("f", a.actions.get(2).other().getSimple());
    assertEquals(SqlAlterTableColumns.Kind.MODIFY, a.actions.get(3).kind());
    assertTrue(a.actions.get(4).first());
    assertTrue(a.getKind().belongsTo(SqlKind.DDL));
  }

  @Test void killMutation() throws Exception {
    final dev.travertine.calcite.ddl.SqlKillQuery k =
        parseAs("KILL MUTATION WHERE mutation_id = 'mutation_3.txt'", dev.travertine.calcite.ddl.SqlKillQuery.class);
    assertTrue(k.mutation);
    assertFalse(parseAs("KILL QUERY WHERE query_id = 'q'", dev.travertine.calcite.ddl.SqlKillQuery.class).mutation);
  }

  @Test void alterTableDelete() throws Exception {
    final SqlAlterTableMutation m =
        parseAs("alter table db.hits delete where x = 1", SqlAlterTableMutation.class);
    assertTrue(m.delete);
    assertEquals(List.of("db", "hits"), m.table.names);
    assertTrue(m.targetColumns.isEmpty());
    assertTrue(m.sourceExpressions.isEmpty());
    assertEquals(SqlKind.EQUALS, m.condition.getKind());
  }

  @Test void optimizeTable() throws Exception {
    final SqlOptimizeTable o = parseAs("OPTIMIZE TABLE hits", SqlOptimizeTable.class);
    assertFalse(o.isFinal);
    assertEquals("hits", o.table.getSimple());
    assertEquals(SqlKind.OTHER_DDL, o.getKind());
    assertTrue(parseAs("optimize table s.hits final", SqlOptimizeTable.class).isFinal);
  }

  @Test void systemCommands() throws Exception {
    final SqlSystemCommand f = parseAs("SYSTEM FLUSH", SqlSystemCommand.class);
    assertEquals(SqlSystemCommand.Kind.FLUSH, f.kind);
    assertNull(f.table);
    assertEquals(SqlKind.OTHER_DDL, f.getKind());
    final SqlSystemCommand ft = parseAs("SYSTEM FLUSH TABLE hits", SqlSystemCommand.class);
    assertEquals(SqlSystemCommand.Kind.FLUSH, ft.kind);
    assertEquals("hits", ft.table.getSimple());
    final SqlSystemCommand stop = parseAs("system stop merges", SqlSystemCommand.class);
    assertEquals(SqlSystemCommand.Kind.STOP_MERGES, stop.kind);
    assertNull(stop.table);
    final SqlSystemCommand start =
        parseAs("SYSTEM START MERGES db.hits", SqlSystemCommand.class);
    assertEquals(SqlSystemCommand.Kind.START_MERGES, start.kind);
    assertEquals(List.of("db", "hits"), start.table.names);
    assertInstanceOf(SqlSystemCommand.class, start.clone(start.getParserPosition()));
    final SqlSystemCommand drop = parseAs("system drop Uncompressed Cache", SqlSystemCommand.class);
    assertEquals(SqlSystemCommand.Kind.DROP_UNCOMPRESSED_CACHE, drop.kind);
    assertNull(drop.table);
    assertEquals("SYSTEM DROP UNCOMPRESSED CACHE", drop.toString());
  }

  // ---------------------------------------------------------------- SET / RESET / ALTER SESSION

  @Test void setAndReset() throws Exception {
    final SqlSetOption s = (SqlSetOption) parse("SET max_threads = 4");
    assertEquals("max_threads", s.getName().toString());
    assertEquals(4, ((SqlLiteral) s.getValue()).intValue(true));
    assertNull(s.getScope());
    final SqlSetOption s2 = (SqlSetOption) parse("SET some_setting = 'abc'");
    assertEquals("abc", ((SqlLiteral) s2.getValue()).getValueAs(String.class));
    final SqlSetOption r = (SqlSetOption) parse("RESET max_threads");
    assertNull(r.getValue());
    assertEquals("max_threads", r.getName().toString());
    final SqlSetOption all = (SqlSetOption) parse("RESET ALL");
    assertEquals("ALL", all.getName().toString());
    final SqlSetOption alter = (SqlSetOption) parse("ALTER SESSION SET max_threads = 2");
    assertEquals("SESSION", alter.getScope());
    final SqlSetOption sys = (SqlSetOption) parse("ALTER SYSTEM RESET ALL");
    assertEquals("SYSTEM", sys.getScope());
    assertTrue(s.getKind().belongsTo(SqlKind.DDL));
  }

  // ---------------------------------------------------------------- core statements

  @Test void coreStatementsStillParse() throws Exception {
    assertEquals(SqlKind.SELECT, parse("SELECT * FROM t WHERE a = 1").getKind());
    assertEquals(SqlKind.SELECT, parse("SELECT * FROM TABLE(numbers(10))").getKind());
    assertEquals(SqlKind.ORDER_BY,
        parse("SELECT a, count(*) FROM t GROUP BY a ORDER BY 2 DESC LIMIT 10").getKind());
    assertEquals(SqlKind.WITH,
        parse("WITH x AS (SELECT 1 AS a) SELECT a FROM x").getKind());
    assertEquals(SqlKind.VALUES, parse("VALUES (1, 'a'), (2, 'b')").getKind());
    assertInstanceOf(SqlInsert.class, parse("INSERT INTO t1 VALUES (1, 2, 3)"));
    assertInstanceOf(SqlInsert.class, parse("INSERT INTO t1 (a, b) SELECT x, y FROM t2"));
    assertInstanceOf(SqlUpdate.class, parse("UPDATE t1 SET a = 1, b = b + 1 WHERE c = 2"));
    assertInstanceOf(SqlDelete.class, parse("DELETE FROM t1 WHERE a > 5"));
    assertInstanceOf(SqlMerge.class, parse("MERGE INTO t USING s ON t.a = s.a "
        + "WHEN MATCHED THEN UPDATE SET b = s.b "
        + "WHEN NOT MATCHED THEN INSERT (a, b) VALUES (s.a, s.b)"));
    assertInstanceOf(SqlExplain.class, parse("EXPLAIN PLAN FOR SELECT * FROM t"));
    assertEquals(SqlKind.UNION,
        parse("SELECT a FROM t UNION ALL SELECT b FROM u").getKind());
    assertEquals(SqlKind.SELECT, parse("SELECT a, SUM(b) OVER (PARTITION BY c ORDER BY d) "
        + "FROM t").getKind());
    assertEquals(SqlKind.SELECT,
        parse("SELECT CASE WHEN a IS NULL THEN 1 ELSE 2 END FROM t").getKind());
    // A statement list, as used by sqllogictest-style scripts.
    final SqlNodeList list = SqlParser.create(
        "CREATE TABLE t (a INT); INSERT INTO t VALUES (1); SELECT * FROM t;",
        config(SqlConformanceEnum.DEFAULT)).parseStmtList();
    assertEquals(3, list.size());
    assertInstanceOf(SqlCreateMergeTreeTable.class, list.get(0));
  }

  @Test void babelConformance() throws Exception {
    assertInstanceOf(SqlCreateMergeTreeTable.class,
        parseBabel("CREATE TABLE t (a INT) ENGINE = MergeTree ORDER BY a"));
    assertInstanceOf(SqlCreateIndex.class, parseBabel("CREATE INDEX i ON t (a)"));
    assertEquals(SqlKind.SELECT, parseBabel("SELECT * FROM TABLE(numbers(10))").getKind());
    assertInstanceOf(SqlBasicCall.class,
        ((org.apache.calcite.sql.SqlSelect) parseBabel("SELECT a FROM t WHERE a = 1"))
            .getWhere());
  }
}
