package dev.travertine.exec.op;

import dev.travertine.exec.Columns;
import dev.travertine.exec.expr.Evaluators;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.VectorExpression;
import dev.travertine.exec.join.BuildMatches;
import dev.travertine.exec.join.HashJoinProbe;
import dev.travertine.exec.join.JoinTable;
import dev.travertine.exec.join.KeyFilter;
import dev.travertine.exec.join.VectorGather;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.CompactVector;
import dev.travertine.vector.DataType;
import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Filters, projections and hash-join probes applied to each batch, in order: a filter narrows the selection vector
 * (into a new one, as the input's may be shared; the rows stay where they are), a projection
 * evaluates its expressions into new vectors (a bare column reference passes its vector on).
 * A join's probe replaces the batch (see {@link HashJoinProbe}). Optionally first picks the scan's fields out of a scan batch (indexed by table column). One
 * instance per thread.
 */
public final class ComputeStage implements BatchStage {
  private final int[] scanColumns;
  private final VectorExpression[] filters;
  private final VectorExpression[][] projects;
  private final int[][] passThrough;
  private final HashJoinProbe[] joins;
  private final Runnable cancelCheck;
  private final int[] keyFields;
  private final KeyFilter.Instance[] keyFilters;

  /** A runtime filter on a field of the stage's input. */
  public record FieldFilter(int field, KeyFilter filter) {}

  /**
   * @param scanColumns table column of each field when the input is a scan batch (null: the
   *     input's columns are the fields)
   * @param steps Filter and Project steps only
   */
  public ComputeStage(int[] scanColumns, List<Step> steps, Runnable cancelCheck) {
    this(scanColumns, steps, null, null, cancelCheck);
  }

  /**
   * @param steps Filter, Project and HashJoin steps
   * @param types the field types before each step ({@code types.get(i)} for {@code steps.get(i)};
   *     read for a join), and may end with the output's (then a batch that keeps few of its rows
   *     leaves with them gathered rather than its compact vectors widened whole)
   * @param tables the built table of each join step
   */
  public ComputeStage(int[] scanColumns, List<Step> steps, List<List<DataType>> types,
      java.util.function.Function<Step.HashJoin, JoinTable> tables, Runnable cancelCheck) {
    this(scanColumns, steps, types, tables, List.of(), cancelCheck);
  }

  /**
   * As above, first dropping the rows whose field fails a join's runtime filter (see
   * {@link KeyFilter}): the fields must be ones the joins they come from see unchanged.
   */
  public ComputeStage(int[] scanColumns, List<Step> steps, List<List<DataType>> types,
      java.util.function.Function<Step.HashJoin, JoinTable> tables, List<FieldFilter> keyFilters,
      Runnable cancelCheck) {
    this(scanColumns, steps, types, tables, j -> null, keyFilters, cancelCheck);
  }

  /** As above, with where each FULL join's probes mark the build rows they matched. */
  public ComputeStage(int[] scanColumns, List<Step> steps, List<List<DataType>> types,
      java.util.function.Function<Step.HashJoin, JoinTable> tables,
      java.util.function.Function<Step.HashJoin, BuildMatches> matches, List<FieldFilter> keyFilters,
      Runnable cancelCheck) {
    this.scanColumns = scanColumns;
    this.keyFields = keyFilters.stream().mapToInt(FieldFilter::field).toArray();
    this.keyFilters = keyFilters.stream().map(f -> f.filter().instance()).toArray(KeyFilter.Instance[]::new);
    this.cancelCheck = cancelCheck;
    int n = steps.size();
    this.outTypes = types != null && types.size() > n ? List.copyOf(types.get(n)) : null;
    filters = new VectorExpression[n];
    projects = new VectorExpression[n][];
    passThrough = new int[n][];
    joins = new HashJoinProbe[n];
    for (int i = 0; i < n; i++) {
      Step s = steps.get(i);
      if (s instanceof Step.Filter f) {
        filters[i] = Evaluators.compile(f.condition());
      } else if (s instanceof Step.Project p) {
        List<Expr> exprs = p.exprs();
        projects[i] = new VectorExpression[exprs.size()];
        passThrough[i] = new int[exprs.size()];
        for (int j = 0; j < exprs.size(); j++) {
          Expr e = exprs.get(j);
          if (e instanceof Expr.Column c) {
            passThrough[i][j] = c.index();
          } else {
            passThrough[i][j] = -1;
            projects[i][j] = Evaluators.compile(e);
          }
        }
      } else if (s instanceof Step.HashJoin j) {
        joins[i] = new HashJoinProbe(j.kind(), tables.apply(j), types.get(i), j.probeKeys(), j.residual(),
            matches.apply(j));
      } else {
        throw new IllegalArgumentException("Not a per-row step: " + s);
      }
    }
  }

  /** The output's field types, or null when not given. */
  private final List<DataType> outTypes;

  /** Whether {@link #apply}'s output may hold our compact vectors (its consumer takes them). */
  private boolean narrowOutput;

  /**
   * Lets the output keep our compact vectors ({@link CompactVector}s: integers at their width,
   * dictionary strings, from a scan that hands them out): for a consumer that takes them, as {@link
   * dev.travertine.exec.agg.HashAggregator} and {@link SortBuffer} do. Otherwise they are widened at the end.
   */
  public ComputeStage narrowOutput() {
    narrowOutput = true;
    return this;
  }

  /** A top-N's threshold on input field {@code field}, tested first of all (null: none). */
  private TopNThreshold threshold;
  private int thresholdField;

  /** Drops first the rows whose field {@code field} fails top-N threshold {@code t} (see {@link TopNThreshold}). */
  ComputeStage withThreshold(int field, TopNThreshold t) {
    threshold = t;
    thresholdField = field;
    return this;
  }

  /** Where expression results come from when the consumer is done with a batch before the next (null: new vectors). */
  private dev.travertine.exec.expr.VectorArena arena;

  /**
   * The consumer is done with each output batch before it asks for the next (a partial aggregate,
   * which copies what it keeps): expression results come from one {@link
   * dev.travertine.exec.expr.VectorArena}, batch after batch, instead of new vectors.
   */
  ComputeStage consumedOutput() {
    arena = new dev.travertine.exec.expr.VectorArena();
    return this;
  }

  @Override
  public Batch apply(Batch b) {
    if (arena != null) {
      arena.open();
    }
    try {
      Batch out = compute(b);
      return narrowOutput ? out : wide(out);
    } finally {
      if (arena != null) {
        arena.close();
      }
    }
  }

  /**
   * {@code b} in Hive's form: its compact vectors widened, or, when it keeps under a quarter of
   * their rows (a selective filter, a build side's few rows), its selected rows gathered into
   * vectors of their own (strings by reference): widening whole vectors would cost every row.
   */
  private Batch wide(Batch b) {
    ColumnVector[] cols = b.cols();
    int length = -1;
    for (ColumnVector v : cols) {
      if (v instanceof CompactVector c) {
        length = Math.max(length, c.length());
      }
    }
    if (length < 0) {
      return b;
    }
    int n = b.size();
    if (n == 0) {
      // nothing to read (a RIGHT_SEMI probe's output, a filter that kept nothing): empty vectors of Hive's form
      ColumnVector[] out = cols.clone();
      for (int c = 0; c < out.length; c++) {
        if (out[c] instanceof IntegerVector) {
          out[c] = new LongColumnVector(1);
        } else if (out[c] instanceof DictionaryVector) {
          out[c] = new BytesColumnVector(1);
        }
      }
      return new Batch(out, b.sel(), 0);
    }
    if (outTypes == null || outTypes.size() != cols.length || (long) n * 4 >= length || !shaped(cols)) {
      return Vectors.wide(b);
    }
    ColumnVector[] out = new ColumnVector[cols.length];
    for (int c = 0; c < cols.length; c++) {
      DataType t = outTypes.get(c);
      out[c] = Columns.gatherTarget(t, n, cols[c]);
      VectorGather.gather(cols[c], t.kind(), b.sel(), n, out[c], 0);
    }
    return new Batch(out, Columns.identity(n), n);
  }

  /** Whether each vector is of the form its output type is held in (what gathering it assumes). */
  private boolean shaped(ColumnVector[] cols) {
    for (int c = 0; c < cols.length; c++) {
      ColumnVector v = cols[c];
      TypeKind k = outTypes.get(c).kind();
      boolean ok = k.isString() ? v instanceof BytesColumnVector || v instanceof DictionaryVector
          : k.isLongBacked() ? v instanceof LongColumnVector && !(v instanceof Decimal64ColumnVector) || v instanceof IntegerVector
          : k == TypeKind.DECIMAL ? v instanceof DecimalColumnVector || v instanceof Decimal64ColumnVector
          : k == TypeKind.TIMESTAMP ? v instanceof TimestampColumnVector
          : v instanceof DoubleColumnVector;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private Batch compute(Batch b) {
    cancelCheck.run();
    if (scanColumns != null) {
      ColumnVector[] fields = new ColumnVector[scanColumns.length];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = b.cols()[scanColumns[i]];
      }
      b = new Batch(fields, b.sel(), b.size());
    }
    boolean ownSel = false; // the input's selection is not ours to write (it may be shared)
    if ((keyFilters.length > 0 || threshold != null && threshold.isSet()) && b.size() > 0) {
      int[] out = Arrays.copyOf(b.sel(), b.size());
      int m = b.size();
      if (threshold != null) {
        m = threshold.filter(b.cols()[thresholdField], out, m);
      }
      for (int k = 0; k < keyFilters.length && m > 0; k++) {
        m = keyFilters[k].filter(b.cols()[keyFields[k]], out, m);
      }
      ownSel = true;
      b = new Batch(b.cols(), out, m);
    }
    for (int i = 0; i < filters.length && b.size() > 0; i++) {
      if (filters[i] != null) {
        int[] out = ownSel ? b.sel() : new int[b.size()];
        int m = filters[i].filter(b, out);
        ownSel = true;
        b = new Batch(b.cols(), out, m);
      } else if (joins[i] != null) {
        b = joins[i].apply(wideKeys(b, joins[i].probeKeys()));
        ownSel = false;
      } else {
        ColumnVector[] out = new ColumnVector[projects[i].length];
        for (int j = 0; j < out.length; j++) {
          int src = passThrough[i][j];
          out[j] = src >= 0 ? b.cols()[src] : projects[i][j].evaluate(b);
        }
        b = new Batch(out, b.sel(), b.size());
      }
    }
    return b;
  }

  /**
   * {@code b} with its join key columns in Hive's form (the probe hashes and compares them so);
   * the others stay as they are: the probe gathers or passes them on, and the stage's end widens.
   */
  private static Batch wideKeys(Batch b, int[] keys) {
    ColumnVector[] cols = b.cols();
    ColumnVector[] out = null;
    for (int k : keys) {
      if (cols[k] instanceof CompactVector) {
        if (out == null) {
          out = cols.clone();
        }
        out[k] = Vectors.wide(cols[k]);
      }
    }
    return out == null ? b : new Batch(out, b.sel(), b.size());
  }
}
