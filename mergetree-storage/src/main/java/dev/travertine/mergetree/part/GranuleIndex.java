package dev.travertine.mergetree.part;

import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.StatsView;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Min/max/null statistics of every column for every granule of a part: the part's sparse index.
 * It is computed while the part is written and stored in the ORC footer's user metadata, so a
 * part stays one file. Granule g covers rows [g·granularity, (g+1)·granularity); stripes are cut at
 * granule boundaries so granules are exactly ORC's row groups.
 */
public final class GranuleIndex {
  /** Strings longer than this keep a truncated minimum and no maximum. */
  static final int MAX_STRING_STAT = 256;

  private final int granularity;
  private final long rows;
  private final TypeKind[] kinds;
  private final Object[][] min; // [column][granule]
  private final Object[][] max;
  private final int[][] nulls;
  private final int[] granuleRows;

  GranuleIndex(int granularity, long rows, TypeKind[] kinds, Object[][] min, Object[][] max, int[][] nulls,
      int[] granuleRows) {
    this.granularity = granularity;
    this.rows = rows;
    this.kinds = kinds;
    this.min = min;
    this.max = max;
    this.nulls = nulls;
    this.granuleRows = granuleRows;
  }

  public int granularity() {
    return granularity;
  }

  public int granules() {
    return granuleRows.length;
  }

  public long rows() {
    return rows;
  }

  public int granuleRows(int g) {
    return granuleRows[g];
  }

  /** Statistics of one granule. */
  public StatsView granule(int g) {
    return new StatsView() {
      @Override
      public Object min(int c) {
        return min[c][g];
      }

      @Override
      public Object max(int c) {
        return max[c][g];
      }

      @Override
      public boolean hasNull(int c) {
        return nulls[c][g] > 0;
      }

      @Override
      public boolean allNull(int c) {
        return nulls[c][g] == granuleRows[g];
      }
    };
  }

  /** Whole-part statistics, by column: {min, max, nullCount} with min/max possibly null. */
  public Object[] columnSummary(int c) {
    Object lo = null;
    Object hi = null;
    boolean hiUnknown = false;
    long n = 0;
    for (int g = 0; g < granules(); g++) {
      n += nulls[c][g];
      Object a = min[c][g];
      Object b = max[c][g];
      if (a != null && (lo == null || Vectors.compareValues(a, lo) < 0)) {
        lo = a;
      }
      if (nulls[c][g] < granuleRows[g] && b == null) {
        hiUnknown = true;
      }
      if (b != null && (hi == null || Vectors.compareValues(b, hi) > 0)) {
        hi = b;
      }
    }
    return new Object[] {lo, hiUnknown ? null : hi, n};
  }

  public byte[] serialize() {
    try {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bos);
      out.writeInt(1); // format version
      out.writeInt(granularity);
      out.writeLong(rows);
      out.writeInt(kinds.length);
      out.writeInt(granuleRows.length);
      for (int r : granuleRows) {
        out.writeInt(r);
      }
      for (int c = 0; c < kinds.length; c++) {
        out.writeUTF(kinds[c].name());
        for (int g = 0; g < granuleRows.length; g++) {
          out.writeInt(nulls[c][g]);
          writeValue(out, kinds[c], min[c][g]);
          writeValue(out, kinds[c], max[c][g]);
        }
      }
      out.flush();
      return bos.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeValue(DataOutputStream out, TypeKind kind, Object v) throws IOException {
    if (v == null) {
      out.writeBoolean(false);
      return;
    }
    out.writeBoolean(true);
    switch (kind) {
      case REAL, DOUBLE -> out.writeDouble((Double) v);
      case DECIMAL -> out.writeUTF(((BigDecimal) v).toString());
      case CHAR, VARCHAR -> {
        byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
      }
      default -> out.writeLong((Long) v);
    }
  }

  private static Object readValue(DataInputStream in, TypeKind kind) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    return switch (kind) {
      case REAL, DOUBLE -> in.readDouble();
      case DECIMAL -> new BigDecimal(in.readUTF());
      case CHAR, VARCHAR -> {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        yield new String(b, StandardCharsets.UTF_8);
      }
      default -> in.readLong();
    };
  }

  public static GranuleIndex deserialize(byte[] data) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      int version = in.readInt();
      if (version != 1) {
        throw new IOException("Unsupported granule index version " + version);
      }
      int granularity = in.readInt();
      long rows = in.readLong();
      int cols = in.readInt();
      int gs = in.readInt();
      int[] granuleRows = new int[gs];
      for (int g = 0; g < gs; g++) {
        granuleRows[g] = in.readInt();
      }
      TypeKind[] kinds = new TypeKind[cols];
      Object[][] min = new Object[cols][gs];
      Object[][] max = new Object[cols][gs];
      int[][] nulls = new int[cols][gs];
      for (int c = 0; c < cols; c++) {
        kinds[c] = TypeKind.valueOf(in.readUTF());
        for (int g = 0; g < gs; g++) {
          nulls[c][g] = in.readInt();
          min[c][g] = readValue(in, kinds[c]);
          max[c][g] = readValue(in, kinds[c]);
        }
      }
      return new GranuleIndex(granularity, rows, kinds, min, max, nulls, granuleRows);
    } catch (IOException e) {
      throw new IllegalStateException("Corrupt granule index: " + e.getMessage(), e);
    }
  }

  /** Accumulates statistics batch by batch while a part is written. */
  public static final class Builder {
    private final TypeKind[] kinds;
    private final int granularity;
    private final List<Object[]> mins = new ArrayList<>();
    private final List<Object[]> maxs = new ArrayList<>();
    private final List<int[]> nullCounts = new ArrayList<>();
    private final List<Integer> granuleRows = new ArrayList<>();
    private long rows;
    // Current granule accumulators.
    private final long[] lmin;
    private final long[] lmax;
    private final double[] dmin;
    private final double[] dmax;
    private final Object[] omin;
    private final Object[] omax;
    private final boolean[] any;
    private final boolean[] maxUnknown;
    private final int[] curNulls;
    private int curRows;

    public Builder(TableSchema schema, int granularity) {
      int n = schema.size();
      this.kinds = new TypeKind[n];
      for (int i = 0; i < n; i++) {
        kinds[i] = schema.column(i).type().kind();
      }
      this.granularity = granularity;
      lmin = new long[n];
      lmax = new long[n];
      dmin = new double[n];
      dmax = new double[n];
      omin = new Object[n];
      omax = new Object[n];
      any = new boolean[n];
      maxUnknown = new boolean[n];
      curNulls = new int[n];
    }

    /** Adds a batch; it must not cross a granule boundary unless split here. */
    public void add(VectorizedRowBatch batch) {
      int from = 0;
      while (from < batch.size) {
        int take = Math.min(batch.size - from, granularity - curRows);
        for (int c = 0; c < kinds.length; c++) {
          accumulate(c, batch.cols[c], from, from + take);
        }
        curRows += take;
        rows += take;
        from += take;
        if (curRows == granularity) {
          closeGranule();
        }
      }
    }

    private void accumulate(int c, ColumnVector v, int from, int to) {
      TypeKind k = kinds[c];
      if ((k.isLongBacked() || k == TypeKind.TIMESTAMP) && !v.isRepeating && from < to) {
        // The common case in one tight loop per column: no type test or NULL test per value.
        long[] vec = k == TypeKind.TIMESTAMP
            ? ((org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector) v).time : ((LongColumnVector) v).vector;
        long mn = lmin[c];
        long mx = lmax[c];
        boolean seen = any[c];
        if (v.noNulls) {
          if (!seen) {
            mn = vec[from];
            mx = vec[from];
            seen = true;
          }
          for (int r = from; r < to; r++) {
            long x = vec[r];
            mn = Math.min(mn, x);
            mx = Math.max(mx, x);
          }
        } else {
          for (int r = from; r < to; r++) {
            if (v.isNull[r]) {
              curNulls[c]++;
              continue;
            }
            long x = vec[r];
            if (!seen) {
              mn = x;
              mx = x;
              seen = true;
            }
            mn = Math.min(mn, x);
            mx = Math.max(mx, x);
          }
        }
        lmin[c] = mn;
        lmax[c] = mx;
        any[c] = seen;
        return;
      }
      for (int r = from; r < to; r++) {
        int i = v.isRepeating ? 0 : r;
        if (!v.noNulls && v.isNull[i]) {
          curNulls[c]++;
          continue;
        }
        if (k.isLongBacked() || k == TypeKind.TIMESTAMP) {
          long x = k == TypeKind.TIMESTAMP
              ? ((org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector) v).time[i]
              : ((LongColumnVector) v).vector[i];
          if (!any[c] || x < lmin[c]) {
            lmin[c] = x;
          }
          if (!any[c] || x > lmax[c]) {
            lmax[c] = x;
          }
        } else if (k.isDoubleBacked()) {
          double x = ((DoubleColumnVector) v).vector[i];
          if (!any[c] || Double.compare(x, dmin[c]) < 0) {
            dmin[c] = x;
          }
          if (!any[c] || Double.compare(x, dmax[c]) > 0) {
            dmax[c] = x;
          }
        } else if (k.isString()) {
          BytesColumnVector b = (BytesColumnVector) v;
          int len = b.length[i];
          byte[] lo = (byte[]) omin[c];
          if (!any[c] || Vectors.compareBytes(b.vector[i], b.start[i], len, lo, 0, lo.length) < 0) {
            int cut = Math.min(len, MAX_STRING_STAT);
            // A prefix ends on a character boundary: a cut character would decode as U+FFFD,
            // which sorts above the value it stands for (a minimum must not).
            while (cut < len && cut > 0 && (b.vector[i][b.start[i] + cut] & 0xC0) == 0x80) {
              cut--;
            }
            omin[c] = Arrays.copyOfRange(b.vector[i], b.start[i], b.start[i] + cut);
          }
          if (len > MAX_STRING_STAT) {
            maxUnknown[c] = true;
          } else {
            byte[] hi = (byte[]) omax[c];
            if (hi == null || Vectors.compareBytes(b.vector[i], b.start[i], len, hi, 0, hi.length) > 0) {
              omax[c] = Arrays.copyOfRange(b.vector[i], b.start[i], b.start[i] + len);
            }
          }
        } else {
          Object x = Vectors.get(v, k, r);
          if (!any[c] || Vectors.compareValues(x, omin[c]) < 0) {
            omin[c] = x;
          }
          if (!any[c] || Vectors.compareValues(x, omax[c]) > 0) {
            omax[c] = x;
          }
        }
        any[c] = true;
      }
    }

    private void closeGranule() {
      if (curRows == 0) {
        return;
      }
      int n = kinds.length;
      Object[] mi = new Object[n];
      Object[] ma = new Object[n];
      for (int c = 0; c < n; c++) {
        if (!any[c]) {
          continue;
        }
        TypeKind k = kinds[c];
        if (k.isLongBacked() || k == TypeKind.TIMESTAMP) {
          mi[c] = lmin[c];
          ma[c] = lmax[c];
        } else if (k.isDoubleBacked()) {
          mi[c] = dmin[c];
          ma[c] = dmax[c];
        } else if (k.isString()) {
          mi[c] = new String((byte[]) omin[c], StandardCharsets.UTF_8);
          ma[c] = maxUnknown[c] || omax[c] == null ? null : new String((byte[]) omax[c], StandardCharsets.UTF_8);
        } else {
          mi[c] = omin[c];
          ma[c] = omax[c];
        }
      }
      mins.add(mi);
      maxs.add(ma);
      nullCounts.add(curNulls.clone());
      granuleRows.add(curRows);
      Arrays.fill(any, false);
      Arrays.fill(maxUnknown, false);
      Arrays.fill(omin, null);
      Arrays.fill(omax, null);
      Arrays.fill(curNulls, 0);
      curRows = 0;
    }

    public GranuleIndex build() {
      closeGranule();
      int gs = granuleRows.size();
      int n = kinds.length;
      Object[][] min = new Object[n][gs];
      Object[][] max = new Object[n][gs];
      int[][] nulls = new int[n][gs];
      for (int g = 0; g < gs; g++) {
        for (int c = 0; c < n; c++) {
          min[c][g] = mins.get(g)[c];
          max[c][g] = maxs.get(g)[c];
          nulls[c][g] = nullCounts.get(g)[c];
        }
      }
      return new GranuleIndex(granularity, rows, kinds, min, max, nulls,
          granuleRows.stream().mapToInt(Integer::intValue).toArray());
    }
  }
}
