package dev.travertine.calcite.prepare;

import dev.travertine.calcite.codegen.CodeCompiler;
import dev.travertine.calcite.dml.FastInsert;
import dev.travertine.calcite.dml.FastInsertSignature;
import dev.travertine.calcite.dml.MutationSignature;
import dev.travertine.calcite.dml.MutationStatement;
import dev.travertine.calcite.file.FileInsert;
import dev.travertine.calcite.file.IntoOutfile;
import dev.travertine.calcite.plan.TravertineProgram;
import dev.travertine.calcite.rel.TravertineRules;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.calcite.vectorized.VectorizedRel;
import org.apache.calcite.DataContexts;
import org.apache.calcite.config.CalciteSystemProperty;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Calcite's prepare with Travertine's rules registered in every planner (INSERT … VALUES has no scan to register them). */
public class TravertinePrepare extends CalcitePrepareImpl {
  @Override public <T> CalciteSignature<T> prepareSql(org.apache.calcite.jdbc.CalcitePrepare.Context context,
      Query<T> query, java.lang.reflect.Type elementType, long maxRowCount) {
    context = CodeCompiler.wrap(context);
    if (query.sql != null) {
      String trimmed = ClickHouseFunctions.prepareText(withoutTrailingSemicolons(query.sql));
      if (!trimmed.equals(query.sql)) {
        query = Query.of(trimmed); // "DROP INDEX i;" as tools and scripts send it; any(x), quantile(p)(x)
      }
      org.apache.calcite.schema.SchemaPlus main = context.getRootSchema().plus().getSubSchema(TravertineSchema.NAME);
      if (main != null) {
        TravertineSession session = TravertineSchema.session(context.getRootSchema().plus());
        var config = org.apache.calcite.sql.parser.SqlParser.config()
            .withParserFactory(ParserFactory.FACTORY)
            .withUnquotedCasing(context.config().unquotedCasing())
            .withQuotedCasing(context.config().quotedCasing())
            .withCaseSensitive(context.config().caseSensitive())
            .withConformance(context.config().conformance());
        FastInsert fast = FastInsert.tryPrepare(session, query.sql, config);
        if (fast != null) {
          // Not wrapped: the JDBC batch path recognises this class; it logs its own executions.
          return new FastInsertSignature<>(query.sql, fast, fast.rowCount(), context, session);
        }
        MutationStatement mutation = MutationStatement.tryPrepare(query.sql, config);
        if (mutation != null) {
          return new MutationSignature<>(query.sql, mutation, context, session);
        }
        FileInsert fromFiles = FileInsert.tryPrepare(session, query.sql, config);
        if (fromFiles != null) {
          return FileInsert.signature(query.sql, fromFiles, context, session);
        }
        IntoOutfile.Spec outfile = IntoOutfile.parse(query.sql);
        if (outfile != null) {
          CalciteSignature<Object[]> rows = prepareSql(context, Query.of(outfile.query()), Object[].class, -1);
          return IntoOutfile.signature(query.sql, outfile, rows, context, session);
        }
        // Plans are reused for the same SQL text until the next DDL (Calcite plans each time otherwise).
        boolean vectorized = session.settings().getBool(dev.travertine.mergetree.settings.Settings.VECTORIZED_EXECUTION);
        String key = maxRowCount + "|" + elementType + "|" + vectorized + "|" + query.sql;
        session.database().refreshAttached(query.sql); // a writer's ALTER of an attached table makes plans stale
        @SuppressWarnings("unchecked")
        CalciteSignature<T> cached = (CalciteSignature<T>) session.cachedPlan(key);
        if (cached != null) {
          return cached;
        }
        long version = session.database().catalogVersion();
        // DDL runs while preparing: it is logged here; other statements when executed.
        var registry = session.database().queries();
        var q = QueryTracking.begin(session, query.sql);
        CalciteSignature<T> sig;
        try {
          VectorizedRel.ENABLED.set(vectorized);
          sig = super.prepareSql(context, query, elementType, maxRowCount);
        } catch (RuntimeException e) {
          RuntimeException failure = SqlErrors.withStatementText(e, query.sql);
          registry.finish(q, failure);
          throw failure;
        } catch (AssertionError e) {
          // Calcite states some of its limits as assertions; JDBC callers get an SQLException
          // (an Error would pass Avatica's handlers and end a sqlline session).
          RuntimeException failure = new IllegalStateException("Cannot plan this statement (Calcite: "
              + e.getMessage() + ")", e);
          registry.finish(q, failure);
          throw failure;
        } finally {
          VectorizedRel.ENABLED.remove();
        }
        if (sig.statementType == org.apache.calcite.avatica.Meta.StatementType.OTHER_DDL) {
          registry.finish(q, null);
          return sig;
        }
        registry.abandon(q); // executions are logged by the wrapped signature
        CalciteSignature<T> tracked = QueryTracking.wrap(sig, session);
        if (!query.sql.stripLeading().regionMatches(true, 0, "EXPLAIN", 0, 7)) {
          session.cachePlan(key, version, tracked); // EXPLAIN shows live index analysis: never cached
        }
        return tracked;
      }
    }
    return super.prepareSql(context, query, elementType, maxRowCount);
  }


  static String withoutTrailingSemicolons(String sql) {
    int end = sql.length();
    while (end > 0 && (sql.charAt(end - 1) == ';' || Character.isWhitespace(sql.charAt(end - 1)))) {
      end--;
    }
    return end == sql.length() ? sql : sql.substring(0, end);
  }

  @Override protected CalcitePreparingStmt getPreparingStmt(org.apache.calcite.jdbc.CalcitePrepare.Context context,
      java.lang.reflect.Type elementType, org.apache.calcite.prepare.CalciteCatalogReader catalogReader,
      RelOptPlanner planner) {
    var prefer = elementType == Object[].class ? org.apache.calcite.adapter.enumerable.EnumerableRel.Prefer.ARRAY
        : org.apache.calcite.adapter.enumerable.EnumerableRel.Prefer.CUSTOM;
    var typeFactory = context.getTypeFactory();
    return new CalcitePreparingStmt(this, context, catalogReader, typeFactory, context.getRootSchema(), prefer,
        createCluster(planner, new org.apache.calcite.rex.RexBuilder(typeFactory)),
        org.apache.calcite.adapter.enumerable.EnumerableConvention.INSTANCE, createConvertletTable()) {
      private boolean json = true;

      @Override protected org.apache.calcite.tools.Program getProgram() {
        return TravertineProgram.INSTANCE;
      }

      /**
       * NULL arithmetic is folded here, right after conversion: trimming already derives
       * predicates, and Calcite asserts on a comparison with NULL among them. (Calcite's prepare
       * always trims: CalcitePrepareImpl enables it.)
       */
      @Override protected org.apache.calcite.rel.RelRoot trimUnusedFields(org.apache.calcite.rel.RelRoot root) {
        return super.trimUnusedFields(root.withRel(NullArithmetic.fold(root.rel)));
      }

      @Override protected org.apache.calcite.sql2rel.SqlToRelConverter getSqlToRelConverter(
          org.apache.calcite.sql.validate.SqlValidator validator,
          org.apache.calcite.prepare.Prepare.CatalogReader catalogReader,
          org.apache.calcite.sql2rel.SqlToRelConverter.Config config) {
        // The JSON rewrite rebuilds every projection outside the builder: only for statements with JSON functions.
        return super.getSqlToRelConverter(validator, catalogReader,
            config.withRelBuilderFactory(CollationSafeProjects.BUILDER).withAddJsonTypeOperatorEnabled(json));
      }

      @Override public org.apache.calcite.rel.RelRoot expandView(org.apache.calcite.rel.type.RelDataType rowType,
          String queryString, java.util.List<String> schemaPath, java.util.@Nullable List<String> viewPath) {
        boolean outer = json;
        json = queryString.toUpperCase(java.util.Locale.ROOT).contains("JSON"); // a view converts with its own text
        try {
          return super.expandView(rowType, queryString, schemaPath, viewPath);
        } finally {
          json = outer;
        }
      }

      @Override public PreparedResult prepareSql(org.apache.calcite.sql.SqlNode sqlQuery,
          org.apache.calcite.sql.SqlNode sqlNodeOriginal, Class<?> runtimeContextClass,
          org.apache.calcite.sql.validate.SqlValidator validator, boolean needsValidation) {
        if (needsValidation) {
          checkInsertWidth(sqlQuery, validator);
          ClickHouseFunctions.rewrite(sqlQuery);
          PreValidation.rewrite(sqlQuery);
        }
        json = callsJsonFunction(sqlQuery);
        return super.prepareSql(sqlQuery, sqlNodeOriginal, runtimeContextClass, validator, needsValidation);
      }
    };
  }

  /**
   * An INSERT without a column list gives a value for every column: Calcite's lenient conformance
   * would fill the missing ones with NULL (DuckDB, SQLite and ClickHouse refuse). Checked where
   * the source's width is known before validation (VALUES, a SELECT list without a star).
   */
  static void checkInsertWidth(org.apache.calcite.sql.SqlNode node, org.apache.calcite.sql.validate.SqlValidator validator) {
    if (!(node instanceof org.apache.calcite.sql.SqlInsert ins) || ins.getTargetColumnList() != null
        || !(ins.getTargetTable() instanceof org.apache.calcite.sql.SqlIdentifier id)) {
      return;
    }
    org.apache.calcite.sql.SqlNode source = ins.getSource();
    java.util.List<Integer> widths = new java.util.ArrayList<>();
    if (source.getKind() == org.apache.calcite.sql.SqlKind.VALUES) {
      for (org.apache.calcite.sql.SqlNode row : ((org.apache.calcite.sql.SqlCall) source).getOperandList()) {
        if (row.getKind() != org.apache.calcite.sql.SqlKind.ROW) {
          return;
        }
        widths.add(((org.apache.calcite.sql.SqlCall) row).operandCount());
      }
    } else if (source instanceof org.apache.calcite.sql.SqlSelect select && select.getSelectList() != null) {
      for (org.apache.calcite.sql.SqlNode item : select.getSelectList()) {
        if (item instanceof org.apache.calcite.sql.SqlIdentifier i && i.isStar()) {
          return;
        }
      }
      widths.add(select.getSelectList().size());
    } else {
      return;
    }
    var table = validator.getCatalogReader().getTable(id.names);
    if (table == null) {
      return; // the validator names it
    }
    int columns = table.getRowType().getFieldCount();
    for (int w : widths) {
      if (w != columns) {
        throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
            "Table %s has %d columns but %d values were supplied (name the columns to insert fewer: "
                + "INSERT INTO %s (c1, c2, …) …)", id.names.get(id.names.size() - 1), columns, w,
            id.names.get(id.names.size() - 1)));
      }
    }
  }

  /** Whether a statement calls a JSON function (JSON_OBJECT, JSON_VALUE, …), resolved or not. */
  static boolean callsJsonFunction(org.apache.calcite.sql.SqlNode node) {
    if (node == null) {
      return false;
    }
    var found = new boolean[1];
    node.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
      @Override public Void visit(org.apache.calcite.sql.SqlCall call) {
        if (call.getOperator().getName().regionMatches(true, 0, "JSON", 0, 4)) {
          found[0] = true;
          return null;
        }
        return super.visit(call);
      }
    });
    return found[0];
  }

  /**
   * Calcite's planner and default rules (as {@code CalcitePrepareImpl} sets them up, less its
   * "Spark" rules: that handler is {@link CodeCompiler}, which adds none), each rule building its
   * projections with {@link CollationSafeProjects} (see {@link TravertineRules#withSafeBuilder}),
   * and Travertine's rules. A copy of Calcite's set-up because only our own planner can rebuild
   * rules as they are added (removing and re-adding them per query cost planning time).
   */
  @Override protected RelOptPlanner createPlanner(org.apache.calcite.jdbc.CalcitePrepare.Context prepareContext,
      org.apache.calcite.plan.@Nullable Context externalContext, @Nullable RelOptCostFactory costFactory) {
    VolcanoPlanner planner = new VolcanoPlanner(costFactory,
        externalContext != null ? externalContext : Contexts.of(prepareContext.config())) {
      @Override public boolean addRule(RelOptRule rule) {
        return super.addRule(TravertineRules.withSafeBuilder(rule));
      }
    };
    planner.setExecutor(new LiteralCastExecutor(new RexExecutorImpl(DataContexts.EMPTY)));
    planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
    if (CalciteSystemProperty.ENABLE_COLLATION_TRAIT.value()) {
      planner.addRelTraitDef(RelCollationTraitDef.INSTANCE);
    }
    planner.setTopDownOpt(prepareContext.config().topDownOpt());
    RelOptUtil.registerDefaultRules(planner, prepareContext.config().materializationsEnabled(), enableBindable);
    Hook.PLANNER.run(planner);
    TravertineRules.register(planner);
    return planner;
  }
}
