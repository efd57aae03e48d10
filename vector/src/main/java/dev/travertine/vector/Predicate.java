package dev.travertine.vector;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/**
 * A filter the engine evaluates itself: comparisons of a column with constants, IN lists,
 * IS [NOT] NULL, and AND/OR of those. Constants are in the column's storage representation.
 * Semantics are SQL's for WHERE: a row passes only if the predicate is TRUE (NULL fails).
 *
 * <p>Three uses: {@link #mayMatch} on min/max statistics (partition and granule pruning),
 * {@link #filter} on column vectors (the scan's selection vector), and conversion to an ORC
 * SearchArgument so ORC skips the same row groups.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "p")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Predicate.Compare.class, name = "cmp"),
    @JsonSubTypes.Type(value = Predicate.In.class, name = "in"),
    @JsonSubTypes.Type(value = Predicate.IsNull.class, name = "null"),
    @JsonSubTypes.Type(value = Predicate.And.class, name = "and"),
    @JsonSubTypes.Type(value = Predicate.Or.class, name = "or")})
public sealed interface Predicate {

  /** Comparison operators. */
  enum Op {
    EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

    final String sql;

    Op(String sql) {
      this.sql = sql;
    }

    boolean test(int cmp) {
      return switch (this) {
        case EQ -> cmp == 0;
        case NE -> cmp != 0;
        case LT -> cmp < 0;
        case LE -> cmp <= 0;
        case GT -> cmp > 0;
        case GE -> cmp >= 0;
      };
    }
  }

  /** Table column indexes this predicate reads. */
  void collectColumns(BitSet out);

  /** False only if no row with these statistics can pass. */
  boolean mayMatch(StatsView stats);

  /**
   * Keeps, of the {@code n} selected rows in {@code sel}, those that pass; returns the new count.
   * {@code cols} is indexed by table column.
   */
  int filter(ColumnVector[] cols, int[] sel, int n);

  /**
   * As {@link #filter} over every row {@code 0 .. n)}: the passing rows into {@code out}; returns
   * their count. For a batch no earlier step narrowed, without first writing every row's position.
   */
  default int filterAll(ColumnVector[] cols, int n, int[] out) {
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return filter(cols, out, n);
  }

  /** Fixes constant types to the columns' storage representations; throws on impossible ones. */
  Predicate bind(Fields schema);

  /** Renders with column names, for EXPLAIN. */
  String describe(Fields schema);

  /** {@code column op value}. */
  record Compare(int column, Op op, Object value) implements Predicate {
    @Override
    public void collectColumns(BitSet out) {
      out.set(column);
    }

    @Override
    public boolean mayMatch(StatsView s) {
      if (s.allNull(column)) {
        return false;
      }
      Object min = s.min(column);
      Object max = s.max(column);
      if (min == null || max == null) {
        return true;
      }
      int cMin = Vectors.compareValues(min, value);
      int cMax = Vectors.compareValues(max, value);
      return switch (op) {
        case EQ -> cMin <= 0 && cMax >= 0;
        case NE -> !(cMin == 0 && cMax == 0);
        case LT -> cMin < 0;
        case LE -> cMin <= 0;
        case GT -> cMax > 0;
        case GE -> cMax >= 0;
      };
    }

    @Override
    public int filter(ColumnVector[] cols, int[] sel, int n) {
      ColumnVector v = cols[column];
      if (v instanceof IntegerVector iv && value instanceof Number num && !(value instanceof BigDecimal)
          && !(value instanceof Double) && !(value instanceof Float)) {
        return narrow(iv, num.longValue(), sel, n);
      }
      if (v instanceof DictionaryVector d && value instanceof String str) {
        if (str.isEmpty() && op.test(0) != op.test(1)) { // '' against '' and against any other string
          return d.selectEmpty(op.test(0), sel, n, sel);
        }
        byte[] c = str.getBytes(StandardCharsets.UTF_8);
        return d.select((b, st, len) -> op.test(Vectors.compareBytes(b, st, len, c, 0, c.length)), sel, n, sel);
      }
      v = Vectors.wide(v);
      int out = 0;
      if (v instanceof LongColumnVector lv && !(v instanceof Decimal64ColumnVector) && value instanceof Number num
          && !(value instanceof BigDecimal) && !(value instanceof Double) && !(value instanceof Float)) {
        return longs(lv, op, num.longValue(), sel, n);
      }
      if (v instanceof DoubleColumnVector dv && value instanceof Number num) {
        double c = num.doubleValue();
        double[] a = dv.vector;
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          int i = v.isRepeating ? 0 : r;
          // Double.compare, as the statistics use: NaN sorts last, -0.0 before 0.0.
          if ((v.noNulls || !v.isNull[i]) && op.test(Double.compare(a[i], c))) {
            sel[out++] = r;
          }
        }
        return out;
      }
      if (v instanceof BytesColumnVector bv && value instanceof String str) {
        byte[] c = str.getBytes(StandardCharsets.UTF_8);
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          int i = v.isRepeating ? 0 : r;
          if ((v.noNulls || !v.isNull[i])
              && op.test(Vectors.compareBytes(bv.vector[i], bv.start[i], bv.length[i], c, 0, c.length))) {
            sel[out++] = r;
          }
        }
        return out;
      }
      if (v instanceof Decimal64ColumnVector dv && value instanceof BigDecimal b) {
        Long c = scaledExactly(b, dv.scale);
        if (c != null) {
          return longs(dv, op, c, sel, n); // scaled longs compared as longs
        }
      }
      HiveDecimal hd = v instanceof DecimalColumnVector && value instanceof BigDecimal b ? HiveDecimal.create(b) : null;
      if (hd != null) {
        // compared in HiveDecimal's own form, with no BigDecimal per value
        HiveDecimalWritable c = new HiveDecimalWritable(hd);
        HiveDecimalWritable[] a = ((DecimalColumnVector) v).vector;
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          int i = v.isRepeating ? 0 : r;
          if ((v.noNulls || !v.isNull[i]) && op.test(a[i].compareTo(c))) {
            sel[out++] = r;
          }
        }
        return out;
      }
      // Generic path (timestamps): value by value.
      TypeKind kind = kindOf(v, value);
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        Object x = Vectors.get(v, kind, r);
        if (x != null && op.test(Vectors.compareValues(x, value))) {
          sel[out++] = r;
        }
      }
      return out;
    }

    @Override
    public int filterAll(ColumnVector[] cols, int n, int[] out) {
      ColumnVector v = cols[column];
      if (v instanceof LongColumnVector lv && !(v instanceof Decimal64ColumnVector) && v.noNulls && !v.isRepeating
          && value instanceof Long c) {
        return denseLongs(lv.vector, op, c, n, out);
      }
      if (v instanceof Decimal64ColumnVector dv && v.noNulls && !v.isRepeating && value instanceof BigDecimal b) {
        Long c = scaledExactly(b, dv.scale);
        if (c != null) {
          return denseLongs(dv.vector, op, c, n, out); // scaled longs compared as longs
        }
      }
      return Predicate.super.filterAll(cols, n, out);
    }

    /**
     * Rows {@code 0 .. n)} of {@code a} that compare with {@code c} as {@code op} says, into {@code
     * out}. (In)equality with a constant keeps almost no row or almost every row, so it takes a
     * branch per row, which then predicts well; the orderings, whose selectivity is anyone's, go
     * branch-free.
     */
    private static int denseLongs(long[] a, Op op, long c, int n, int[] out) {
      int m = 0;
      switch (op) {
        case EQ -> {
          for (int i = 0; i < n; i++) {
            if (a[i] == c) {
              out[m++] = i;
            }
          }
        }
        case NE -> {
          for (int i = 0; i < n; i++) {
            if (a[i] != c) {
              out[m++] = i;
            }
          }
        }
        case LT -> {
          for (int i = 0; i < n; i++) {
            out[m] = i;
            m += a[i] < c ? 1 : 0;
          }
        }
        case LE -> {
          for (int i = 0; i < n; i++) {
            out[m] = i;
            m += a[i] <= c ? 1 : 0;
          }
        }
        case GT -> {
          for (int i = 0; i < n; i++) {
            out[m] = i;
            m += a[i] > c ? 1 : 0;
          }
        }
        case GE -> {
          for (int i = 0; i < n; i++) {
            out[m] = i;
            m += a[i] >= c ? 1 : 0;
          }
        }
      }
      return m;
    }

    /** {@link #filter} of integers at their width: the operator as a range, at the vector's width. */
    private int narrow(IntegerVector v, long c, int[] sel, int n) {
      int m = v.selectCompare(op, c, sel, n, sel, false);
      if (v.noNulls) {
        return m;
      }
      int out = 0;
      for (int k = 0; k < m; k++) {
        int r = sel[k];
        if (!v.isNull[v.isRepeating ? 0 : r]) {
          sel[out++] = r;
        }
      }
      return out;
    }

    @Override
    public Predicate bind(Fields schema) {
      return new Compare(column, op, coerce(schema.type(column), value));
    }

    @Override
    public String describe(Fields schema) {
      return schema.name(column) + " " + op.sql + " " + literal(value);
    }
  }

  /** {@code column IN (values)}; values are non-null. */
  record In(int column, List<Object> values) implements Predicate {
    @Override
    public void collectColumns(BitSet out) {
      out.set(column);
    }

    @Override
    public boolean mayMatch(StatsView s) {
      for (Object v : values) {
        if (new Compare(column, Op.EQ, v).mayMatch(s)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public int filter(ColumnVector[] cols, int[] sel, int n) {
      if (values.size() == 1) {
        return new Compare(column, Op.EQ, values.get(0)).filter(cols, sel, n);
      }
      if (cols[column] instanceof DictionaryVector d && values.stream().allMatch(x -> x instanceof String)) {
        byte[][] cs = values.stream().map(x -> ((String) x).getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        return d.select((b, st, len) -> {
          for (byte[] c : cs) {
            if (c.length == len && java.util.Arrays.equals(b, st, st + len, c, 0, len)) {
              return true;
            }
          }
          return false;
        }, sel, n, sel);
      }
      ColumnVector v = Vectors.wide(cols[column]); // a narrow one widened (a copy per batch)
      if (v instanceof LongColumnVector lv && values.stream().allMatch(x -> x instanceof Long)) {
        long[] sorted = values.stream().mapToLong(x -> (Long) x).sorted().toArray();
        int out = 0;
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          int i = v.isRepeating ? 0 : r;
          if ((v.noNulls || !v.isNull[i]) && java.util.Arrays.binarySearch(sorted, lv.vector[i]) >= 0) {
            sel[out++] = r;
          }
        }
        return out;
      }
      // Union of equality selections, kept in row order.
      return union(values.stream().map(x -> (Predicate) new Compare(column, Op.EQ, x)).toList(), cols, sel, n);
    }

    @Override
    public Predicate bind(Fields schema) {
      DataType t = schema.type(column);
      List<Object> vs = new ArrayList<>();
      for (Object v : values) {
        vs.add(coerce(t, v));
      }
      return new In(column, vs);
    }

    @Override
    public String describe(Fields schema) {
      StringBuilder sb = new StringBuilder(schema.name(column)).append(" IN (");
      for (int i = 0; i < values.size(); i++) {
        sb.append(i > 0 ? ", " : "").append(literal(values.get(i)));
      }
      return sb.append(')').toString();
    }
  }

  /**
   * A condition every row the scan's consumer keeps satisfies, used only to skip data by its
   * statistics (partitions, granules, ORC row groups): rows are not tested against it. A join's
   * runtime filter as a scan predicate is one: the scan's first stage tests every row with the
   * filter itself, range included ({@code KeyFilter}), so testing the range again cost TPC-H Q17 a
   * quarter of its time.
   */
  record Pruning(Predicate condition) implements Predicate {
    @Override
    public void collectColumns(BitSet out) {
      condition.collectColumns(out);
    }

    @Override
    public boolean mayMatch(StatsView s) {
      return condition.mayMatch(s);
    }

    @Override
    public int filter(ColumnVector[] cols, int[] sel, int n) {
      return n;
    }

    @Override
    public Predicate bind(Fields schema) {
      return new Pruning(condition.bind(schema));
    }

    @Override
    public String describe(Fields schema) {
      return condition.describe(schema) + " (pruning only)";
    }
  }

  /** {@code p} without its {@link Pruning} parts: what rows are tested with; null when nothing is left. */
  public static Predicate forRows(Predicate p) {
    if (p instanceof Pruning) {
      return null;
    }
    if (p instanceof And a && a.children().stream().anyMatch(c -> c instanceof Pruning)) {
      List<Predicate> rest = a.children().stream().filter(c -> !(c instanceof Pruning)).toList();
      return rest.isEmpty() ? null : rest.size() == 1 ? rest.get(0) : new And(rest);
    }
    return p;
  }

  /** {@code column IS NULL} or, negated, {@code IS NOT NULL}. */
  record IsNull(int column, boolean negated) implements Predicate {
    @Override
    public void collectColumns(BitSet out) {
      out.set(column);
    }

    @Override
    public boolean mayMatch(StatsView s) {
      return negated ? !s.allNull(column) : s.hasNull(column);
    }

    @Override
    public int filter(ColumnVector[] cols, int[] sel, int n) {
      ColumnVector v = cols[column];
      if (v.noNulls) {
        return negated ? n : 0;
      }
      int out = 0;
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        boolean isNull = v.isNull[v.isRepeating ? 0 : r];
        if (isNull != negated) {
          sel[out++] = r;
        }
      }
      return out;
    }

    @Override
    public Predicate bind(Fields schema) {
      return this;
    }

    @Override
    public String describe(Fields schema) {
      return schema.name(column) + (negated ? " IS NOT NULL" : " IS NULL");
    }
  }

  /** All of the children. */
  record And(List<Predicate> children) implements Predicate {
    @Override
    public void collectColumns(BitSet out) {
      children.forEach(c -> c.collectColumns(out));
    }

    @Override
    public boolean mayMatch(StatsView s) {
      for (Predicate c : children) {
        if (!c.mayMatch(s)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int filter(ColumnVector[] cols, int[] sel, int n) {
      for (Predicate c : children) {
        n = c.filter(cols, sel, n);
        if (n == 0) {
          break;
        }
      }
      return n;
    }

    /** The first conjunct over every row, the others over the rows it keeps. */
    @Override
    public int filterAll(ColumnVector[] cols, int n, int[] out) {
      if (children.isEmpty()) {
        return Predicate.super.filterAll(cols, n, out);
      }
      int m = children.get(0).filterAll(cols, n, out);
      for (int k = 1; k < children.size() && m > 0; k++) {
        m = children.get(k).filter(cols, out, m);
      }
      return m;
    }

    @Override
    public Predicate bind(Fields schema) {
      return new And(children.stream().map(c -> c.bind(schema)).toList());
    }

    @Override
    public String describe(Fields schema) {
      return "AND(" + String.join(", ", children.stream().map(c -> c.describe(schema)).toList()) + ")";
    }
  }

  /** Any of the children. */
  record Or(List<Predicate> children) implements Predicate {
    @Override
    public void collectColumns(BitSet out) {
      children.forEach(c -> c.collectColumns(out));
    }

    @Override
    public boolean mayMatch(StatsView s) {
      for (Predicate c : children) {
        if (c.mayMatch(s)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public int filter(ColumnVector[] cols, int[] sel, int n) {
      In strings = stringsOfOneColumn();
      if (strings != null && cols[strings.column()] instanceof DictionaryVector) {
        return strings.filter(cols, sel, n); // one test per dictionary entry for all the branches
      }
      return union(children, cols, sel, n);
    }

    /** These branches as one IN list when each is {@code column = 'string'} or such an IN on one column; else null. */
    private In stringsOfOneColumn() {
      int column = -1;
      List<Object> values = new ArrayList<>();
      for (Predicate c : children) {
        if (c instanceof Compare k && k.op() == Op.EQ && k.value() instanceof String
            && (column < 0 || column == k.column())) {
          column = k.column();
          values.add(k.value());
        } else if (c instanceof In in && (column < 0 || column == in.column())
            && in.values().stream().allMatch(x -> x instanceof String)) {
          column = in.column();
          values.addAll(in.values());
        } else {
          return null;
        }
      }
      return column < 0 ? null : new In(column, values);
    }

    @Override
    public Predicate bind(Fields schema) {
      return new Or(children.stream().map(c -> c.bind(schema)).toList());
    }

    @Override
    public String describe(Fields schema) {
      return "OR(" + String.join(", ", children.stream().map(c -> c.describe(schema)).toList()) + ")";
    }
  }

  /** Keeps the selected rows that pass any of the predicates, in row order. */
  private static int union(List<Predicate> any, ColumnVector[] cols, int[] sel, int n) {
    BitSet keep = new BitSet();
    int[] tmp = new int[n];
    for (Predicate c : any) {
      System.arraycopy(sel, 0, tmp, 0, n);
      int m = c.filter(cols, tmp, n);
      for (int k = 0; k < m; k++) {
        keep.set(tmp[k]);
      }
    }
    int out = 0;
    for (int k = 0; k < n; k++) {
      if (keep.get(sel[k])) {
        sel[out++] = sel[k];
      }
    }
    return out;
  }

  /** {@code b} as an unscaled long at {@code scale}, or null when it has more digits or does not fit. */
  /**
   * Keeps the rows of {@code sel[0..n)} whose value in {@code v} compares to {@code c} as
   * {@code op} says; without NULLs or repetition, a loop that writes every row and advances past
   * the kept ones (no branch to mispredict on a selective filter).
   */
  private static int longs(LongColumnVector v, Op op, long c, int[] sel, int n) {
    long[] a = v.vector;
    int out = 0;
    if (v.noNulls && !v.isRepeating) {
      switch (op) {
        case EQ -> {
          for (int k = 0; k < n; k++) {
            int r = sel[k];
            sel[out] = r;
            out += a[r] == c ? 1 : 0;
          }
        }
        case NE -> {
          for (int k = 0; k < n; k++) {
            int r = sel[k];
            sel[out] = r;
            out += a[r] != c ? 1 : 0;
          }
        }
        case LT -> {
          for (int k = 0; k < n; k++) {
            int r = sel[k];
            sel[out] = r;
            out += a[r] < c ? 1 : 0;
          }
        }
        case LE -> {
          for (int k = 0; k < n; k++) {
            int r = sel[k];
            sel[out] = r;
            out += a[r] <= c ? 1 : 0;
          }
        }
        case GT -> {
          for (int k = 0; k < n; k++) {
            int r = sel[k];
            sel[out] = r;
            out += a[r] > c ? 1 : 0;
          }
        }
        case GE -> {
          for (int k = 0; k < n; k++) {
            int r = sel[k];
            sel[out] = r;
            out += a[r] >= c ? 1 : 0;
          }
        }
      }
      return out;
    }
    boolean rep = v.isRepeating;
    boolean noNulls = v.noNulls;
    boolean[] isNull = v.isNull;
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      int i = rep ? 0 : r;
      if ((noNulls || !isNull[i]) && op.test(Long.compare(a[i], c))) {
        sel[out++] = r;
      }
    }
    return out;
  }

  private static Long scaledExactly(BigDecimal b, int scale) {
    try {
      return b.setScale(scale, java.math.RoundingMode.UNNECESSARY).unscaledValue().longValueExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static TypeKind kindOf(ColumnVector v, Object value) {
    if (value instanceof BigDecimal) {
      return TypeKind.DECIMAL;
    }
    if (v instanceof org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector) {
      return TypeKind.TIMESTAMP;
    }
    if (v instanceof LongColumnVector || v instanceof IntegerVector) {
      return TypeKind.BIGINT;
    }
    if (v instanceof DoubleColumnVector) {
      return TypeKind.DOUBLE;
    }
    if (v instanceof BytesColumnVector || v instanceof DictionaryVector) {
      return TypeKind.VARCHAR;
    }
    return TypeKind.DECIMAL;
  }

  /** Converts a constant to the storage representation of a column type. */
  static Object coerce(DataType t, Object v) {
    if (v == null) {
      throw new IllegalArgumentException("Cannot compare with NULL in a pushed predicate");
    }
    return switch (t.kind()) {
      case BOOLEAN -> v instanceof Boolean b ? (b ? 1L : 0L) : ((Number) v).longValue();
      case TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> {
        if (v instanceof BigDecimal bd) {
          yield bd.longValueExact();
        }
        if (v instanceof Double || v instanceof Float) {
          double d = ((Number) v).doubleValue();
          if (d != Math.rint(d)) {
            throw new IllegalArgumentException("Cannot push a fractional constant on an integer column");
          }
          yield (long) d;
        }
        yield ((Number) v).longValue();
      }
      case REAL, DOUBLE -> ((Number) v).doubleValue();
      case DECIMAL -> v instanceof BigDecimal bd ? bd : new BigDecimal(v.toString());
      case CHAR, VARCHAR -> v.toString();
      case TIMESTAMP -> ((Number) v).longValue();
    };
  }

  private static String literal(Object v) {
    return v instanceof String s ? "'" + s.replace("'", "''") + "'" : String.valueOf(v);
  }
}
