<#--
  Travertine's grammar extensions, included into Calcite's Parser.jj template
  (see config.fmpp). Statements:

    CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [( tableElement, ... )]
        [ENGINE [=] ident[()]] [PARTITION BY expr] [ORDER BY key]
        [PRIMARY KEY key] [SETTINGS k = v, ...]   (clauses in any order)
        [AS query]
    CREATE [OR REPLACE] VIEW name [(cols)] AS query
    CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (col [ASC|DESC], ...)
    DROP TABLE|VIEW [IF EXISTS] name [CASCADE|RESTRICT]
    DROP INDEX [IF EXISTS] name [ON table]
    TRUNCATE TABLE name [CONTINUE IDENTITY|RESTART IDENTITY]
    ALTER TABLE name UPDATE col = expr, ... WHERE cond
    ALTER TABLE name DELETE WHERE cond
    OPTIMIZE TABLE name [FINAL]
    SYSTEM FLUSH [TABLE name] | SYSTEM STOP MERGES [name]
        | SYSTEM START MERGES [name]

  where key is expr | (expr, ...) | tuple() | ().
-->

/** Builds the exception for a clause that occurs twice in a statement. */
JAVACODE CalciteContextException tvDuplicateClause(SqlParserPos pos,
    String clause)
{
    return tvContextException(pos, "Duplicate " + clause + " clause");
}

/** Builds a parse error (with position) from a message. */
JAVACODE CalciteContextException tvContextException(SqlParserPos pos,
    String message)
{
    return new CalciteContextException(message,
        new org.apache.calcite.runtime.CalciteException(message, null),
        pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(),
        pos.getEndColumnNum());
}

/**
 * Converts a parsed key expression into a list: a row "(a, b)" and
 * "tuple(a, b)" become their elements, "tuple()" becomes an empty list,
 * anything else a list of one.
 */
JAVACODE SqlNodeList tvKeyList(SqlNode e)
{
    if (e.getKind() == SqlKind.ROW) {
        return new SqlNodeList(((SqlCall) e).getOperandList(),
            e.getParserPosition());
    }
    if (e.getKind() == SqlKind.OTHER_FUNCTION
        && ((SqlCall) e).getOperator().getName().equalsIgnoreCase("tuple")) {
        return new SqlNodeList(((SqlCall) e).getOperandList(),
            e.getParserPosition());
    }
    return new SqlNodeList(Collections.singletonList(e), e.getParserPosition());
}

boolean TvIfNotExistsOpt() :
{
}
{
    LOOKAHEAD(3) <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean TvIfExistsOpt() :
{
}
{
    LOOKAHEAD(2) <IF> <EXISTS> { return true; }
|
    { return false; }
}

/** Parses an optional CASCADE or RESTRICT; returns whether it was CASCADE. */
boolean TvCascadeOpt() :
{
}
{
    <CASCADE> { return true; }
|
    <RESTRICT> { return false; }
|
    { return false; }
}

/** Parses the parenthesized element list of CREATE TABLE. */
SqlNodeList TvTableElementList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    TvTableElement(list)
    (
        <COMMA> TvTableElement(list)
    )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/**
 * Parses a column ("name [type [NOT NULL | NULL] [DEFAULT expr]
 * [PRIMARY KEY] [UNIQUE]]", the attributes in any order) or a table
 * constraint ("[CONSTRAINT name] PRIMARY KEY (cols) | UNIQUE (cols) |
 * CHECK (expr)"). A column-level PRIMARY KEY or UNIQUE is added to the list
 * as a key constraint on that column, after the column.
 */
void TvTableElement(List<SqlNode> list) :
{
    final SqlIdentifier id;
    SqlDataTypeSpec type = null;
    boolean nullable = true;
    SqlNode defaultValue = null;
    boolean primary = false;
    boolean unique = false;
    final SqlNode e;
    SqlIdentifier name = null;
    final SqlNodeList columnList;
    final Span s = Span.of();
}
{
    id = SimpleIdentifier() { s.add(id); }
    [
        type = DataType()
        (
            <NOT> <NULL> { nullable = false; }
        |
            <NULL> { nullable = true; }
        |
            <DEFAULT_> {
                if (defaultValue != null) {
                    throw tvDuplicateClause(getPos(), "DEFAULT");
                }
            }
            defaultValue = Expression(ExprContext.ACCEPT_SUB_QUERY)
        |
            <PRIMARY> <KEY> { primary = true; }
        |
            <UNIQUE> { unique = true; }
        )*
    ]
    {
        if (type == null) {
            // Column name only, as in "CREATE TABLE t (a, b) AS SELECT ...".
            list.add(id);
        } else {
            final SqlParserPos pos = s.end(this);
            final ColumnStrategy strategy = defaultValue != null
                ? ColumnStrategy.DEFAULT
                : nullable ? ColumnStrategy.NULLABLE
                : ColumnStrategy.NOT_NULLABLE;
            list.add(
                SqlDdlNodes.column(pos, id, type.withNullable(nullable),
                    defaultValue, strategy));
            if (primary) {
                list.add(
                    SqlDdlNodes.primary(pos, null,
                        new SqlNodeList(Collections.singletonList(id),
                            id.getParserPosition())));
            }
            if (unique) {
                list.add(
                    SqlDdlNodes.unique(pos, null,
                        new SqlNodeList(Collections.singletonList(id),
                            id.getParserPosition())));
            }
        }
    }
|
    [ <CONSTRAINT> { s.add(this); } name = SimpleIdentifier() ]
    (
        <CHECK> { s.add(this); } <LPAREN>
        e = Expression(ExprContext.ACCEPT_SUB_QUERY) <RPAREN> {
            list.add(SqlDdlNodes.check(s.end(this), name, e));
        }
    |
        <UNIQUE> { s.add(this); }
        columnList = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.unique(s.end(columnList), name, columnList));
        }
    |
        <PRIMARY> { s.add(this); } <KEY>
        columnList = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.primary(s.end(columnList), name, columnList));
        }
    )
}

/**
 * Parses a MergeTree key (ORDER BY, PRIMARY KEY): "expr", "(expr, ...)",
 * "tuple(...)" or "()".
 */
SqlNodeList TvKeyExpressionList() :
{
    final Span s;
    final SqlNode e;
}
{
    LOOKAHEAD(2)
    <LPAREN> { s = span(); } <RPAREN> {
        return new SqlNodeList(s.end(this));
    }
|
    e = Expression(ExprContext.ACCEPT_NON_QUERY) {
        return tvKeyList(e);
    }
}

/** Parses "name = value [, name = value]*" after SETTINGS. */
SqlNodeList TvTableSettingList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    { s = span(); }
    TvTableSetting(list)
    (
        <COMMA> TvTableSetting(list)
    )*
    {
        return new SqlNodeList(list, s.end(this));
    }
}

void TvTableSetting(List<SqlNode> list) :
{
    final SqlIdentifier name;
    final SqlNode value;
}
{
    name = SimpleIdentifier()
    <EQ>
    (
        value = Literal()
    |
        value = SimpleIdentifier()
    )
    {
        list.add(
            new SqlTableOption(
                name.getParserPosition().plus(value.getParserPosition()),
                name, value));
    }
}

SqlCreate SqlCreateMergeTreeTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList columnList = null;
    SqlIdentifier engine = null;
    SqlNode partitionBy = null;
    SqlNodeList orderBy = null;
    SqlNodeList primaryKey = null;
    SqlNodeList settings = null;
    SqlNode query = null;
    SqlIdentifier engineName;
    SqlNode e;
    SqlNodeList list;
}
{
    <TABLE> ifNotExists = TvIfNotExistsOpt() id = CompoundIdentifier()
    [ columnList = TvTableElementList() ]
    (
        <ENGINE> {
            if (engine != null) {
                throw tvDuplicateClause(getPos(), "ENGINE");
            }
        }
        [ <EQ> ]
        engineName = SimpleIdentifier() { engine = engineName; }
        [ <LPAREN> <RPAREN> ]
    |
        <PARTITION> {
            if (partitionBy != null) {
                throw tvDuplicateClause(getPos(), "PARTITION BY");
            }
        }
        <BY> e = Expression(ExprContext.ACCEPT_NON_QUERY) {
            partitionBy = e;
        }
    |
        <ORDER> {
            if (orderBy != null) {
                throw tvDuplicateClause(getPos(), "ORDER BY");
            }
        }
        <BY> list = TvKeyExpressionList() { orderBy = list; }
    |
        <PRIMARY> {
            if (primaryKey != null) {
                throw tvDuplicateClause(getPos(), "PRIMARY KEY");
            }
        }
        <KEY> list = TvKeyExpressionList() { primaryKey = list; }
    |
        <SETTINGS> {
            if (settings != null) {
                throw tvDuplicateClause(getPos(), "SETTINGS");
            }
        }
        list = TvTableSettingList() { settings = list; }
    )*
    [ <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) ]
    {
        if (columnList == null && query == null) {
            throw tvContextException(s.end(this),
                "CREATE TABLE needs a column list or AS query");
        }
        return new SqlCreateMergeTreeTable(s.end(this), replace, ifNotExists,
            id, columnList, engine, partitionBy, orderBy, primaryKey,
            settings, query);
    }
}

SqlCreate SqlCreateView(Span s, boolean replace) :
{
    final SqlIdentifier id;
    SqlNodeList columnList = null;
    final SqlNode query;
}
{
    <VIEW> id = CompoundIdentifier()
    [ columnList = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
        return SqlDdlNodes.createView(s.end(this), replace, id, columnList,
            query);
    }
}

SqlCreate SqlCreateIndex(Span s, boolean replace) :
{
    boolean unique = false;
    final boolean ifNotExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
    final SqlNodeList columns;
}
{
    [ <UNIQUE> { unique = true; } ]
    <INDEX> {
        if (replace) {
            throw tvContextException(s.end(this),
                "CREATE OR REPLACE INDEX is not supported");
        }
    }
    ifNotExists = TvIfNotExistsOpt()
    name = CompoundIdentifier()
    <ON> table = CompoundIdentifier()
    columns = TvIndexColumnList() {
        return new SqlCreateIndex(s.end(this), unique, ifNotExists, name,
            table, columns);
    }
}

/** Parses "(col [ASC | DESC], ...)"; a DESC column is wrapped in DESC. */
SqlNodeList TvIndexColumnList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    TvIndexColumn(list)
    (
        <COMMA> TvIndexColumn(list)
    )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

void TvIndexColumn(List<SqlNode> list) :
{
    final SqlIdentifier id;
    SqlNode e;
}
{
    id = SimpleIdentifier() { e = id; }
    [
        <ASC>
    |
        <DESC> {
            e = SqlStdOperatorTable.DESC.createCall(
                id.getParserPosition().plus(getPos()), id);
        }
    ]
    {
        list.add(e);
    }
}

SqlDrop SqlDropTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    // CASCADE / RESTRICT are accepted and ignored.
    <TABLE> ifExists = TvIfExistsOpt() id = CompoundIdentifier()
    TvCascadeOpt() {
        return SqlDdlNodes.dropTable(s.end(this), ifExists, id);
    }
}

SqlDrop SqlDropView(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    // CASCADE / RESTRICT are accepted and ignored.
    <VIEW> ifExists = TvIfExistsOpt() id = CompoundIdentifier()
    TvCascadeOpt() {
        return SqlDdlNodes.dropView(s.end(this), ifExists, id);
    }
}

SqlDrop SqlDropIndex(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    SqlIdentifier table = null;
}
{
    <INDEX> ifExists = TvIfExistsOpt() name = CompoundIdentifier()
    [ <ON> table = CompoundIdentifier() ]
    {
        return new SqlDropIndex(s.end(this), ifExists, name, table);
    }
}

SqlTruncate SqlTruncateTable(Span s) :
{
    final SqlIdentifier id;
    final boolean continueIdentity;
}
{
    <TABLE> id = CompoundIdentifier()
    (
        <CONTINUE> <IDENTITY> { continueIdentity = true; }
    |
        <RESTART> <IDENTITY> { continueIdentity = false; }
    |
        { continueIdentity = true; }
    )
    {
        return SqlDdlNodes.truncateTable(s.end(this), id, continueIdentity);
    }
}

/**
 * Parses "ALTER TABLE name UPDATE col = expr [, ...] WHERE cond" and
 * "ALTER TABLE name DELETE WHERE cond" (ClickHouse mutations). Called from
 * SqlStmt with LOOKAHEAD(2), ahead of "ALTER SYSTEM|SESSION".
 */
SqlNode SqlAlterTableMutation() :
{
    final Span s;
    final SqlIdentifier table;
    final boolean delete;
    final List<SqlNode> targets = new ArrayList<SqlNode>();
    final List<SqlNode> sources = new ArrayList<SqlNode>();
    final Span ls;
    final SqlNode condition;
    final List<SqlAlterTableColumns.Action> actions = new ArrayList<SqlAlterTableColumns.Action>();
}
{
    <ALTER> { s = span(); } <TABLE> table = CompoundIdentifier()
    (
        (
            <UPDATE> { delete = false; ls = span(); }
            TvAssignment(targets, sources)
            (
                <COMMA> TvAssignment(targets, sources)
            )*
        |
            <DELETE> { delete = true; ls = span(); }
        )
        <WHERE> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) {
            final SqlParserPos listPos = ls.pos();
            return new SqlAlterTableMutation(s.end(this), table, delete,
                new SqlNodeList(targets, listPos),
                new SqlNodeList(sources, listPos), condition);
        }
    |
        TvColumnAction(actions)
        (
            <COMMA> TvColumnAction(actions)
        )*
        {
            return new SqlAlterTableColumns(s.end(this), table, actions);
        }
    )
}

/**
 * One column action of ALTER TABLE: ADD COLUMN [IF NOT EXISTS] c type [NOT NULL | NULL]
 * [DEFAULT e] [FIRST | AFTER c], DROP COLUMN [IF EXISTS] c, RENAME COLUMN [IF EXISTS] a TO b,
 * MODIFY COLUMN [IF EXISTS] c type [NOT NULL | NULL] [DEFAULT e].
 */
void TvColumnAction(List<SqlAlterTableColumns.Action> actions) :
{
    final Span s;
    final SqlAlterTableColumns.Kind kind;
    final SqlIdentifier name;
    SqlIdentifier other = null;
    SqlDataTypeSpec type = null;
    Boolean nullable = null;
    SqlNode defaultValue = null;
    boolean ifExists = false;
    boolean first = false;
}
{
    (
        <ADD> { s = span(); kind = SqlAlterTableColumns.Kind.ADD; } [ <COLUMN> ]
        [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifExists = true; } ]
        name = SimpleIdentifier() type = DataType()
        (
            <NOT> <NULL> { nullable = false; }
        |
            <NULL> { nullable = true; }
        |
            <DEFAULT_> defaultValue = Expression(ExprContext.ACCEPT_NON_QUERY)
        )*
        [
            <FIRST> { first = true; }
        |
            <AFTER> other = SimpleIdentifier()
        ]
    |
        <DROP> { s = span(); kind = SqlAlterTableColumns.Kind.DROP; } [ <COLUMN> ]
        [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
        name = SimpleIdentifier()
    |
        <RENAME> { s = span(); kind = SqlAlterTableColumns.Kind.RENAME; } [ <COLUMN> ]
        [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
        name = SimpleIdentifier() <TO> other = SimpleIdentifier()
    |
        <MODIFY> { s = span(); kind = SqlAlterTableColumns.Kind.MODIFY; } [ <COLUMN> ]
        [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
        name = SimpleIdentifier() type = DataType()
        (
            <NOT> <NULL> { nullable = false; }
        |
            <NULL> { nullable = true; }
        |
            <DEFAULT_> defaultValue = Expression(ExprContext.ACCEPT_NON_QUERY)
        )*
    )
    {
        actions.add(new SqlAlterTableColumns.Action(s.end(this), kind, name, other, type, nullable,
            defaultValue, ifExists, first));
    }
}

void TvAssignment(List<SqlNode> targets, List<SqlNode> sources) :
{
    final SqlIdentifier id;
    final SqlNode e;
}
{
    id = SimpleIdentifier() <EQ> e = Expression(ExprContext.ACCEPT_SUB_QUERY) {
        targets.add(id);
        sources.add(e);
    }
}

/** Parses "OPTIMIZE TABLE name [FINAL]". */
SqlNode SqlOptimizeTable() :
{
    final Span s;
    final SqlIdentifier table;
    boolean isFinal = false;
}
{
    <OPTIMIZE> { s = span(); } <TABLE> table = CompoundIdentifier()
    [ <FINAL> { isFinal = true; } ]
    {
        return new SqlOptimizeTable(s.end(this), table, isFinal);
    }
}

/** Parses "CHECK TABLE name": the query over check_table('name') (see SqlCheckTable). */
SqlNode SqlCheckTableQuery() :
{
    final Span s;
    final SqlIdentifier table;
}
{
    <CHECK> { s = span(); } <TABLE> table = CompoundIdentifier()
    {
        return dev.travertine.calcite.ddl.SqlCheckTable.query(s.end(this), table);
    }
}

/**
 * Parses "SYSTEM FLUSH [TABLE name]", "SYSTEM STOP MERGES [name]",
 * "SYSTEM START MERGES [name]" and "SYSTEM DROP UNCOMPRESSED CACHE".
 */
SqlNode SqlSystemCommand() :
{
    final Span s;
    final SqlSystemCommand.Kind kind;
    SqlIdentifier table = null;
    SqlIdentifier what;
    SqlIdentifier cache;
}
{
    <SYSTEM> { s = span(); }
    (
        <FLUSH> { kind = SqlSystemCommand.Kind.FLUSH; }
        [ <TABLE> table = CompoundIdentifier() ]
    |
        <STOP> <MERGES> { kind = SqlSystemCommand.Kind.STOP_MERGES; }
        [ table = CompoundIdentifier() ]
    |
        <START> <MERGES> { kind = SqlSystemCommand.Kind.START_MERGES; }
        [ table = CompoundIdentifier() ]
    |
        <DROP> what = SimpleIdentifier() cache = SimpleIdentifier() {
            if (!what.getSimple().equalsIgnoreCase("UNCOMPRESSED") || !cache.getSimple().equalsIgnoreCase("CACHE")) {
                throw new ParseException("Unknown cache in SYSTEM DROP " + what.getSimple() + " "
                    + cache.getSimple() + ": the cache that can be dropped is SYSTEM DROP UNCOMPRESSED CACHE");
            }
            kind = SqlSystemCommand.Kind.DROP_UNCOMPRESSED_CACHE;
        }
    )
    {
        return new SqlSystemCommand(s.end(this), kind, table);
    }
}

/**
 * KILL QUERY WHERE condition (ClickHouse): cancels the running queries the condition selects;
 * KILL MUTATION WHERE condition: kills the unfinished mutations it selects (system.mutations).
 */
SqlNode SqlKillQuery() :
{
    final Span s;
    final SqlNode condition;
    boolean mutation = false;
}
{
    <KILL> { s = span(); } ( <QUERY> | <MUTATION> { mutation = true; } )
    <WHERE> condition = Expression(ExprContext.ACCEPT_NON_QUERY)
    {
        return new SqlKillQuery(s.end(this), condition, mutation);
    }
}

/**
 * ATTACH TABLE [IF NOT EXISTS] name FROM 'location': a table another node writes, attached
 * read-only from its storage (see SqlAttachTable).
 */
SqlNode SqlAttachTable() :
{
    final Span s;
    final SqlIdentifier table;
    boolean ifNotExists = false;
    final SqlNode location;
}
{
    <ATTACH> { s = span(); } <TABLE>
    [ <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    table = CompoundIdentifier()
    <FROM> location = StringLiteral()
    {
        return new SqlAttachTable(s.end(this), table,
            ((SqlLiteral) location).getValueAs(String.class), ifNotExists);
    }
}

/**
 * ClickHouse's SHOW statements, each parsed into the query that answers it (ShowStatements):
 * SHOW TABLES [FROM|IN db] [[NOT] LIKE 'pattern'], SHOW DATABASES [LIKE 'pattern'],
 * SHOW CREATE [TABLE|VIEW] name, SHOW PROCESSLIST, SHOW SETTINGS LIKE 'pattern',
 * SHOW COLUMNS FROM|IN name.
 */
SqlNode TvShowStatement() :
{
    final Span s;
    SqlIdentifier db = null;
    SqlIdentifier table;
    SqlNode like = null;
    boolean not = false;
}
{
    <SHOW> { s = span(); }
    (
        <TABLES> [ ( <FROM> | <IN> )
            ( db = SimpleIdentifier() | <DEFAULT_> { db = new SqlIdentifier("default", getPos()); } ) ]
        [ [ <NOT> { not = true; } ] <LIKE> like = StringLiteral() ]
        { return dev.travertine.calcite.ddl.ShowStatements.tables(s.end(this), db, like, not); }
    |
        <DATABASES> [ <LIKE> like = StringLiteral() ]
        { return dev.travertine.calcite.ddl.ShowStatements.databases(s.end(this), like); }
    |
        <CREATE> [ <TABLE> | <VIEW> ] table = CompoundIdentifier()
        { return dev.travertine.calcite.ddl.ShowStatements.createTable(s.end(this), table); }
    |
        <PROCESSLIST>
        { return dev.travertine.calcite.ddl.ShowStatements.processList(s.end(this)); }
    |
        <SETTINGS> [ <LIKE> like = StringLiteral() ]
        { return dev.travertine.calcite.ddl.ShowStatements.settings(s.end(this), like); }
    |
        <COLUMNS> ( <FROM> | <IN> ) table = CompoundIdentifier()
        { return dev.travertine.calcite.ddl.ShowStatements.describe(s.end(this), table); }
    )
}

/** DESCRIBE [TABLE] name, DESC [TABLE] name: the columns of a table or view (ShowStatements). */
SqlNode TvDescribeTable() :
{
    final Span s;
    final SqlIdentifier table;
}
{
    ( <DESCRIBE> | <DESC> ) { s = span(); } [ <TABLE> ] table = CompoundIdentifier()
    { return dev.travertine.calcite.ddl.ShowStatements.describe(s.end(this), table); }
}

/** EXISTS [TABLE] name: one row, one column "result", 1 when the table or view exists, else 0. */
SqlNode TvExistsTable() :
{
    final Span s;
    final SqlIdentifier table;
}
{
    <EXISTS> { s = span(); } [ <TABLE> | <VIEW> ] table = CompoundIdentifier()
    { return dev.travertine.calcite.ddl.ShowStatements.exists(s.end(this), table); }
}
