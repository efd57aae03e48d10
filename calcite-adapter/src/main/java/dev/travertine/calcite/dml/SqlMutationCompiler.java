package dev.travertine.calcite.dml;

import dev.travertine.calcite.prepare.LiteralCastExecutor;
import dev.travertine.calcite.prepare.ParserFactory;
import dev.travertine.calcite.rel.RexToPredicate;
import dev.travertine.calcite.schema.TravertineTypeSystem;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.mutation.MutationCommand;
import dev.travertine.mergetree.mutation.MutationCompiler;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TimeZone;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Compiles a mutation's SQL (its WHERE condition and SET expressions) against a table's columns
 * with Calcite: parsed and validated as {@code SELECT cond, e1, … FROM t} under the same
 * parser, conformance and type system as queries, so a mutation means what the same expression
 * means in a SELECT. Conditions the engine's {@link Predicate} can express run vectorized;
 * anything else, and computed SET values, run per matching row through Janino-compiled code
 * (made once per mutation; the table keeps the compiled form).
 */
public final class SqlMutationCompiler implements MutationCompiler {
  public static final SqlMutationCompiler INSTANCE = new SqlMutationCompiler();

  private SqlMutationCompiler() {}

  /**
   * A constant SQL expression (a column DEFAULT) as a storage value of {@code type}, e.g. for
   * ALTER TABLE … ADD COLUMN: old parts read the new column as this value.
   */
  public static Object constant(TableSchema schema, String sql, DataType type) {
    JavaTypeFactory tf = new JavaTypeFactoryImpl(TravertineTypeSystem.INSTANCE);
    RelDataType rowType = TypeMapping.rowType(tf, schema);
    Planned p = plan(schema, rowType, tf, List.of(sql), "DEFAULT " + sql);
    RexNode e = p.exprs().get(0);
    if (!RexUtil.isConstant(e)) {
      throw new IllegalArgumentException("The DEFAULT of a column added by ALTER TABLE must be a constant: " + sql);
    }
    RelDataType target = TypeMapping.toRelType(tf, type, true);
    if (!SqlTypeUtil.canAssignFrom(target, e.getType())
        && !(SqlTypeUtil.isNumeric(target) && SqlTypeUtil.isNumeric(e.getType()))) {
      throw new IllegalArgumentException("Cannot use " + e.getType().getFullTypeString() + " as DEFAULT of a column"
          + " of type " + target.getFullTypeString());
    }
    RexNode cast = p.rexBuilder().makeCast(target, e, true, false);
    Object[] out = RexExecutorImpl.getExecutable(p.rexBuilder(), List.of(cast), rowType).getFunction()
        .apply(new RowContext(null));
    return out == null ? null : out[0];
  }

  /** Validated expressions over the table's columns, and the RexBuilder that made them. */
  private record Planned(List<RexNode> exprs, RexBuilder rexBuilder) {}

  private static Planned plan(TableSchema schema, RelDataType rowType, JavaTypeFactory tf, List<String> exprs,
      String what) {
    SchemaPlus root = Frameworks.createRootSchema(false);
    root.add("t", new AbstractTable() {
      @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return rowType;
      }
    });
    SqlParser.Config parser = SqlParser.config().withParserFactory(ParserFactory.FACTORY)
        .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED).withCaseSensitive(false)
        .withConformance(SqlConformanceEnum.LENIENT);
    FrameworkConfig config = Frameworks.newConfigBuilder().parserConfig(parser).defaultSchema(root)
        .typeSystem(TravertineTypeSystem.INSTANCE)
        .executor(new LiteralCastExecutor(new RexExecutorImpl(org.apache.calcite.DataContexts.EMPTY))).build();
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < exprs.size(); i++) {
      sql.append(i > 0 ? ",\n" : "").append(exprs.get(i));
    }
    sql.append("\nFROM t");
    Planner planner = Frameworks.getPlanner(config);
    try {
      SqlNode parsed = planner.parse(sql.toString());
      SqlNode validated = planner.validate(parsed);
      RelNode rel = planner.rel(validated).project();
      List<RexNode> out;
      if (rel instanceof TableScan) {
        out = new ArrayList<>(RexUtil.generateCastExpressions(rel.getCluster().getRexBuilder(), rowType,
            rel.getRowType()));
      } else if (rel instanceof Project p && p.getInput() instanceof TableScan) {
        out = new ArrayList<>(p.getProjects());
      } else {
        throw new IllegalArgumentException("Expressions must be plain expressions over the table's columns (no"
            + " subqueries or aggregates): " + what);
      }
      for (RexNode e : out) {
        if (RexUtil.SubQueryFinder.find(List.of(e)) != null) {
          throw new IllegalArgumentException("Subqueries are not supported in " + what);
        }
      }
      return new Planned(out, rel.getCluster().getRexBuilder());
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException("Invalid " + what + ": " + message(e), e);
    } finally {
      planner.close();
    }
  }

  @Override
  public CompiledMutation compile(TableSchema schema, MutationCommand command) {
    JavaTypeFactory tf = new JavaTypeFactoryImpl(TravertineTypeSystem.INSTANCE);
    RelDataType rowType = TypeMapping.rowType(tf, schema);
    List<String> targets = new ArrayList<>(command.assignments().keySet());
    List<String> texts = new ArrayList<>();
    texts.add(command.where() == null ? "TRUE" : command.where());
    for (String target : targets) {
      texts.add(command.assignments().get(target));
    }
    Planned planned = plan(schema, rowType, tf, texts, "mutation " + command.text());
    List<RexNode> exprs = planned.exprs();
    RexBuilder rexBuilder = planned.rexBuilder();
    RexNode where = exprs.get(0);
    SqlTypeName wt = where.getType().getSqlTypeName();
    if (wt != SqlTypeName.BOOLEAN && wt != SqlTypeName.NULL) {
      throw new IllegalArgumentException("The WHERE condition of a mutation must be boolean, not "
          + where.getType().getFullTypeString() + ": " + command.where());
    }
    int[] updated = new int[targets.size()];
    List<RexNode> values = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      int c = schema.indexOf(targets.get(i));
      if (c < 0) {
        throw new IllegalArgumentException("Unknown column " + targets.get(i) + " in UPDATE");
      }
      for (int j = 0; j < i; j++) {
        if (updated[j] == c) {
          throw new IllegalArgumentException("Column " + schema.column(c).name() + " is assigned twice");
        }
      }
      updated[i] = c;
      RelDataType target = rowType.getFieldList().get(c).getType();
      RexNode value = exprs.get(i + 1);
      if (!SqlTypeUtil.canAssignFrom(target, value.getType())
          && !(SqlTypeUtil.isNumeric(target) && SqlTypeUtil.isNumeric(value.getType()))) {
        throw new IllegalArgumentException("Cannot assign " + value.getType().getFullTypeString() + " to column "
            + schema.column(c).name() + " of type " + target.getFullTypeString());
      }
      if (!schema.column(c).nullable() && value.getType().getSqlTypeName() == SqlTypeName.NULL) {
        throw new IllegalArgumentException("Cannot assign NULL to NOT NULL column " + schema.column(c).name());
      }
      RelDataType castTo = tf.createTypeWithNullability(target, value.getType().isNullable());
      values.add(rexBuilder.makeCast(castTo, value, true, false));
    }
    return new Compiled(schema, command, rexBuilder, rowType, where, updated, values);
  }

  private static String message(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null ? t.toString() : m;
  }

  /** The compiled form: vectorized where it can be, Janino code per matching row otherwise. */
  private static final class Compiled implements CompiledMutation {
    private final TableSchema schema;
    private final MutationCommand command;
    private final boolean delete;
    private final BitSet columns = new BitSet();
    private final BitSet inputs = new BitSet();
    private final int[] updated;
    private final Predicate exact;
    private final Predicate pruning;
    private final boolean whereAlwaysTrue;
    private final Function1<DataContext, @Nullable Object @Nullable []> whereFn;
    /** Per updated column: a constant, a column copied as is, or a computed value (index into valuesFn). */
    private final Object[] constants;
    private final boolean[] isConstant;
    private final int[] copyFrom;
    private final int[] computed;
    private final Function1<DataContext, @Nullable Object @Nullable []> valuesFn;

    Compiled(TableSchema schema, MutationCommand command, RexBuilder rexBuilder, RelDataType rowType,
        RexNode where, int[] updated, List<RexNode> values) {
      this.schema = schema;
      this.command = command;
      this.delete = command.kind() == MutationCommand.Kind.DELETE;
      this.updated = updated;
      int[] identity = new int[schema.size()];
      for (int i = 0; i < identity.length; i++) {
        identity[i] = i;
      }
      RexToPredicate toPredicate = new RexToPredicate(schema, identity, rexBuilder);
      this.whereAlwaysTrue = where.isAlwaysTrue();
      this.exact = whereAlwaysTrue ? null : toPredicate.translate(where);
      if (exact != null || whereAlwaysTrue) {
        this.pruning = exact;
        this.whereFn = null;
      } else {
        List<Predicate> parts = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(where)) {
          Predicate p = toPredicate.translate(conjunct);
          if (p != null) {
            parts.add(p);
          }
        }
        this.pruning = parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new Predicate.And(parts).bind(schema);
        this.whereFn = RexExecutorImpl.getExecutable(rexBuilder, List.of(where), rowType).getFunction();
        inputs.or(bits(where));
      }
      this.constants = new Object[updated.length];
      this.isConstant = new boolean[updated.length];
      this.copyFrom = new int[updated.length];
      List<RexNode> toCompute = new ArrayList<>();
      this.computed = new int[updated.length];
      for (int i = 0; i < updated.length; i++) {
        RexNode v = values.get(i);
        copyFrom[i] = -1;
        computed[i] = -1;
        if (v instanceof RexInputRef ref) {
          copyFrom[i] = ref.getIndex();
          columns.set(ref.getIndex());
        } else if (RexUtil.isConstant(v)) {
          isConstant[i] = true;
          Object[] out = RexExecutorImpl.getExecutable(rexBuilder, List.of(v), rowType).getFunction()
              .apply(new RowContext(null));
          constants[i] = out == null ? null : out[0];
          checkNotNull(i, constants[i]);
        } else {
          computed[i] = toCompute.size();
          toCompute.add(v);
          inputs.or(bits(v));
        }
      }
      this.valuesFn = toCompute.isEmpty() ? null
          : RexExecutorImpl.getExecutable(rexBuilder, toCompute, rowType).getFunction();
      columns.or(inputs);
      if (exact != null) {
        exact.collectColumns(columns);
      }
      for (int c : updated) {
        columns.set(c);
      }
    }

    private static BitSet bits(RexNode e) {
      return RelOptUtil.InputFinder.bits(e).toBitSet();
    }

    private void checkNotNull(int i, Object value) {
      Column c = schema.column(updated[i]);
      if (value == null && !c.nullable()) {
        throw new IllegalArgumentException("Cannot assign NULL to NOT NULL column " + c.name() + " ("
            + command.text() + ")");
      }
    }

    @Override public boolean isDelete() {
      return delete;
    }

    @Override public BitSet columns() {
      return (BitSet) columns.clone();
    }

    @Override public int[] updated() {
      return updated.clone();
    }

    @Override public Predicate pruning() {
      return pruning;
    }

    @Override public int match(org.apache.hadoop.hive.ql.exec.vector.ColumnVector[] cols, int[] sel, int n) {
      if (whereAlwaysTrue) {
        return n;
      }
      if (exact != null) {
        return exact.filter(cols, sel, n);
      }
      RowContext ctx = new RowContext(new Object[schema.size()]);
      int out = 0;
      for (int i = 0; i < n; i++) {
        int r = sel[i];
        ctx.load(cols, r, inputs, schema);
        Object[] v = whereFn.apply(ctx);
        if (v != null && Boolean.TRUE.equals(v[0])) {
          sel[out++] = r;
        }
      }
      return out;
    }

    @Override public void update(org.apache.hadoop.hive.ql.exec.vector.ColumnVector[] cols, int[] rows, int n) {
      // Values are computed from the row before any assignment (SQL's UPDATE semantics).
      Object[][] computedValues = null;
      if (valuesFn != null) {
        computedValues = new Object[n][];
        RowContext ctx = new RowContext(new Object[schema.size()]);
        for (int i = 0; i < n; i++) {
          ctx.load(cols, rows[i], inputs, schema);
          computedValues[i] = valuesFn.apply(ctx);
        }
      }
      Object[][] copied = new Object[updated.length][];
      for (int u = 0; u < updated.length; u++) {
        if (copyFrom[u] >= 0) {
          TypeKind k = schema.column(copyFrom[u]).type().kind();
          copied[u] = new Object[n];
          for (int i = 0; i < n; i++) {
            copied[u][i] = Vectors.get(cols[copyFrom[u]], k, rows[i]);
          }
        }
      }
      for (int u = 0; u < updated.length; u++) {
        int c = updated[u];
        DataType type = schema.column(c).type();
        for (int i = 0; i < n; i++) {
          Object v = isConstant[u] ? constants[u]
              : copyFrom[u] >= 0 ? copied[u][i] : computedValues[i][computed[u]];
          if (!isConstant[u]) {
            checkNotNull(u, v);
          }
          Vectors.setDetached(cols[c], type, rows[i], v);
        }
      }
    }
  }

  /** The DataContext generated code reads: the current row as "inputRecord", and the clock. */
  private static final class RowContext implements DataContext {
    private final Object[] row;
    private final long now = System.currentTimeMillis();

    RowContext(Object[] row) {
      this.row = row;
    }

    void load(org.apache.hadoop.hive.ql.exec.vector.ColumnVector[] cols, int r, BitSet inputs, TableSchema schema) {
      for (int c = inputs.nextSetBit(0); c >= 0; c = inputs.nextSetBit(c + 1)) {
        row[c] = Vectors.get(cols[c], schema.column(c).type().kind(), r);
      }
    }

    @Override public @Nullable SchemaPlus getRootSchema() {
      return null;
    }

    @Override public JavaTypeFactory getTypeFactory() {
      return new JavaTypeFactoryImpl(TravertineTypeSystem.INSTANCE);
    }

    @Override public QueryProvider getQueryProvider() {
      throw new UnsupportedOperationException();
    }

    @Override public @Nullable Object get(String name) {
      if (name.equals("inputRecord")) {
        return row;
      }
      if (name.equals(Variable.CURRENT_TIMESTAMP.camelName) || name.equals(Variable.UTC_TIMESTAMP.camelName)) {
        return now;
      }
      if (name.equals(Variable.LOCAL_TIMESTAMP.camelName)) {
        return now + TimeZone.getDefault().getOffset(now);
      }
      if (name.equals(Variable.TIME_ZONE.camelName)) {
        return TimeZone.getDefault();
      }
      return null;
    }
  }

  /** For tests: the compiled mutation's vector predicate when it has one (null: row-wise). */
  static boolean isVectorized(CompiledMutation m) {
    return m instanceof Compiled c && (c.exact != null || c.whereAlwaysTrue) && c.valuesFn == null;
  }
}
