package dev.travertine.mergetree.part;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import dev.travertine.vector.Int16Vector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.Int8Vector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.orc.OrcProto;
import org.apache.orc.TypeDescription;

/**
 * The column decoders of {@link OrcStreamReader}: one per ORC type it reads, each over a stripe's
 * decompressed streams of one column (PRESENT, DATA, LENGTH, DICTIONARY_DATA, SECONDARY), filling Hive's
 * vectors as ORC's reader fills them (or, for strings of a dictionary, our dictionary vectors).
 */
final class OrcColumnReaders {
  private OrcColumnReaders() {}

  private static final VarHandle DOUBLE_LE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT_LE = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  /** A decompressed stream: {@code bytes[0 .. length)}, with at least {@link OrcStreamReader#PADDING} bytes after them. */
  record Stream(byte[] bytes, int length) {
    static final Stream EMPTY = new Stream(new byte[OrcStreamReader.PADDING], 0);
  }

  /**
   * The decoder of a column of type {@code t} over its streams of one stripe (by stream kind).
   * {@code narrow}: integers of fewer than 8 bytes (BOOLEAN, TINYINT, SMALLINT, INTEGER, DATE) come
   * as our {@link IntegerVector}s at their width, in place of Hive's vector.
   */
  static Column column(TypeDescription t, OrcProto.ColumnEncoding encoding, Stream[] streams,
      boolean dictionaryStrings, boolean narrow) {
    Stream present = streams[OrcProto.Stream.Kind.PRESENT.ordinal()];
    Stream data = orEmpty(streams[OrcProto.Stream.Kind.DATA.ordinal()]);
    ByteRleReader nulls = present == null ? null : new ByteRleReader(present.bytes(), 0, present.length());
    return switch (t.getCategory()) {
      case BOOLEAN -> new IntegerColumn(nulls, bytes(new ByteRleReader(data.bytes(), 0, data.length()), true),
          narrow ? TypeKind.BOOLEAN : null);
      case BYTE -> new IntegerColumn(nulls, bytes(new ByteRleReader(data.bytes(), 0, data.length()), false),
          narrow ? TypeKind.TINYINT : null);
      case FLOAT, DOUBLE -> new DoubleColumn(nulls, data, t.getCategory() == TypeDescription.Category.FLOAT);
      case TIMESTAMP -> new OrcTimestamps.Decoder(nulls, runs(data, true),
          runs(orEmpty(streams[OrcProto.Stream.Kind.SECONDARY.ordinal()]), false));
      case STRING -> {
        Stream lengths = orEmpty(streams[OrcProto.Stream.Kind.LENGTH.ordinal()]);
        RleV2Reader lengthReader = runs(lengths, false);
        if (encoding.getKind() == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2) {
          Stream dict = fitted(orEmpty(streams[OrcProto.Stream.Kind.DICTIONARY_DATA.ordinal()]));
          yield new DictionaryColumn(nulls, runs(data, false), dict,
              lengthReader, encoding.getDictionarySize(), dictionaryStrings);
        }
        yield new DirectStringColumn(nulls, data, lengthReader);
      }
      default -> new IntegerColumn(nulls, runs(data, true),
          !narrow ? null : switch (t.getCategory()) {
            case SHORT -> TypeKind.SMALLINT;
            case INT -> TypeKind.INTEGER;
            case DATE -> TypeKind.DATE;
            default -> null; // LONG: BIGINT, and scaled DECIMALs
          });
    };
  }

  /** The integer runs (run-length encoding v2) of stream {@code s}; {@code signed}: zigzag-encoded values. */
  private static RleV2Reader runs(Stream s, boolean signed) {
    return new RleV2Reader(s.bytes(), 0, s.length(), signed);
  }

  private static Stream orEmpty(Stream s) {
    return s == null ? Stream.EMPTY : s;
  }

  /**
   * {@code s} in an array of its own size when the one it was decompressed into is much larger (a
   * small stream gets a whole compression buffer of room): for a dictionary's bytes, which Hive's
   * string vectors point into for as long as they are kept.
   */
  private static Stream fitted(Stream s) {
    int want = s.length() + OrcStreamReader.PADDING;
    return s.bytes().length > 2 * want && s.bytes().length - want > 4096
        ? new Stream(Arrays.copyOf(s.bytes(), want), s.length()) : s;
  }

  /** One column's decoders over a stripe's streams. */
  abstract static class Column {
    final ByteRleReader present;

    Column(ByteRleReader present) {
      this.present = present;
    }

    /**
     * Sets {@code v}'s null flags for the next {@code n} rows; returns how many of them have a
     * value (all when the stripe stores no PRESENT stream).
     */
    final int nulls(ColumnVector v, int n) {
      v.isRepeating = false;
      if (present == null) {
        v.noNulls = true;
        Arrays.fill(v.isNull, 0, n, false);
        return n;
      }
      int k = present.readNulls(v.isNull, n);
      v.noNulls = k == n;
      return k;
    }

    /** Decodes the next {@code n} rows into {@code v}; returns the vector holding them ({@code v}, or one of ours). */
    abstract ColumnVector read(ColumnVector v, int n);

    /**
     * Whether rows come in our narrow vectors ({@link IntegerVector}), made by {@link #read} over the
     * arrays of the vector it is given when that is its own of an earlier batch, never written into
     * Hive's vector it is given.
     */
    boolean narrow() {
      return false;
    }

    /** Passes over the next {@code n} rows, decoding no more than it must (run headers, string lengths). */
    abstract void skip(int n);

    /** Passes over the null flags of the next {@code n} rows; returns how many of them have a value. */
    final int skipNulls(int n) {
      return present == null ? n : present.skipBits(n);
    }
  }

  /** Spreads the first {@code k} of {@code x} over the {@code n} rows that are not NULL, NULLs getting {@code fill}. */
  private static void spread(long[] x, boolean[] isNull, int k, int n, long fill) {
    int j = k - 1;
    for (int i = n - 1; i >= 0; i--) {
      x[i] = isNull[i] ? fill : x[j--];
    }
  }

  /** A decoder of a stream's values into longs, or narrower integers that hold them. */
  interface LongValues {
    /** The next {@code n} values into {@code out[off ..)}. */
    void read(long[] out, int off, int n);

    /** The next {@code n} values, each narrowed to an int, into {@code out[off ..)}. */
    void readInts(int[] out, int off, int n);

    /** The next {@code n} values, each narrowed to a short, into {@code out[off ..)}. */
    void readShorts(short[] out, int off, int n);

    /** The next {@code n} values, each narrowed to a byte, into {@code out[off ..)}. */
    void readBytes(byte[] out, int off, int n);

    /** Passes over the next {@code n} values. */
    void skip(int n);
  }

  /** A byte stream's values (TINYINT), or its bits (BOOLEAN), as longs. */
  private static LongValues bytes(ByteRleReader r, boolean bits) {
    return new LongValues() {
      @Override public void read(long[] out, int off, int n) {
        if (bits) {
          r.readBits(out, off, n);
        } else {
          r.read(out, off, n);
        }
      }

      @Override public void readBytes(byte[] out, int off, int n) {
        if (bits) {
          r.readBits(out, off, n);
        } else {
          r.read(out, off, n);
        }
      }

      @Override public void readInts(int[] out, int off, int n) {
        throw new UnsupportedOperationException("a byte stream is read as bytes");
      }

      @Override public void readShorts(short[] out, int off, int n) {
        throw new UnsupportedOperationException("a byte stream is read as bytes");
      }

      @Override public void skip(int n) {
        if (bits) {
          r.skipBits(n);
        } else {
          r.skip(n);
        }
      }
    };
  }

  /**
   * Integers, DATE and scaled DECIMAL (run-length encoding v2), TINYINT (byte run-length
   * encoding) and BOOLEAN (bits): into a {@link LongColumnVector}, or, with a {@code narrow} kind,
   * into our {@link IntegerVector} of that kind; NULL slots hold 1.
   */
  private static final class IntegerColumn extends Column {
    private final LongValues data;
    /** The kind of our narrow vectors this column comes in; null: Hive's vectors. */
    private final TypeKind narrow;

    IntegerColumn(ByteRleReader present, LongValues data, TypeKind narrow) {
      super(present);
      this.data = data;
      this.narrow = narrow;
    }

    @Override
    boolean narrow() {
      return narrow != null;
    }

    @Override
    ColumnVector read(ColumnVector v, int n) {
      if (narrow != null) {
        return readNarrow(v, n);
      }
      int k = nulls(v, n);
      long[] x = ((LongColumnVector) v).vector;
      data.read(x, 0, k);
      if (k < n) {
        spread(x, v.isNull, k, n, 1);
      } else if (n > 1) {
        // one value throughout (a sorted key's long run, a flag): marked, as ORC's reader marks it, for
        // the repeating paths downstream (and a narrow copy of one value); every slot still holds it
        long first = x[0];
        int i = 1;
        while (i < n && x[i] == first) {
          i++;
        }
        v.isRepeating = i == n;
      }
      return v;
    }

    /**
     * The next {@code n} rows as our vector, decoded straight into its array at the column's width:
     * over the arrays of {@code previous} when that is this decoder's vector of an earlier batch (see
     * {@link IntegerVector#decoding}).
     */
    private IntegerVector readNarrow(ColumnVector previous, int n) {
      // room for as many rows as the batch holds (Hive's vector given has as many flags)
      IntegerVector out = IntegerVector.decoding(narrow, n, previous == null ? n : previous.isNull.length, previous);
      int k = nulls(out, n);
      boolean[] isNull = out.isNull;
      boolean repeating;
      if (out instanceof Int8Vector b) {
        byte[] x = b.values;
        data.readBytes(x, 0, k);
        int j = k - 1;
        for (int i = n - 1; k < n && i >= 0; i--) {
          x[i] = isNull[i] ? 1 : x[j--];
        }
        int i = 1;
        while (k == n && i < n && x[i] == x[0]) {
          i++;
        }
        repeating = k == n && n > 1 && i == n;
      } else if (out instanceof Int16Vector s) {
        short[] x = s.values;
        data.readShorts(x, 0, k);
        int j = k - 1;
        for (int i = n - 1; k < n && i >= 0; i--) {
          x[i] = isNull[i] ? 1 : x[j--];
        }
        int i = 1;
        while (k == n && i < n && x[i] == x[0]) {
          i++;
        }
        repeating = k == n && n > 1 && i == n;
      } else {
        int[] x = ((Int32Vector) out).values;
        data.readInts(x, 0, k);
        int j = k - 1;
        for (int i = n - 1; k < n && i >= 0; i--) {
          x[i] = isNull[i] ? 1 : x[j--];
        }
        int i = 1;
        while (k == n && i < n && x[i] == x[0]) {
          i++;
        }
        repeating = k == n && n > 1 && i == n;
      }
      out.isRepeating = repeating; // every slot still holds the value
      return out;
    }

    @Override
    void skip(int n) {
      data.skip(skipNulls(n));
    }
  }

  private static final class DoubleColumn extends Column {
    private final byte[] data;
    private final int end;
    private final boolean single;
    private int pos;

    DoubleColumn(ByteRleReader present, Stream data, boolean single) {
      super(present);
      this.data = data.bytes();
      this.end = data.length();
      this.single = single;
    }

    @Override
    ColumnVector read(ColumnVector v, int n) {
      int k = nulls(v, n);
      double[] x = ((DoubleColumnVector) v).vector;
      int width = single ? 4 : 8;
      if (pos + (long) k * width > end) {
        throw new IllegalStateException("ORC floating-point stream ends before its values");
      }
      byte[] b = data;
      int p = pos;
      if (single) {
        for (int i = 0; i < k; i++, p += 4) {
          x[i] = (float) FLOAT_LE.get(b, p);
        }
      } else {
        for (int i = 0; i < k; i++, p += 8) {
          x[i] = (double) DOUBLE_LE.get(b, p);
        }
      }
      pos = p;
      if (k < n) {
        int j = k - 1;
        boolean[] isNull = v.isNull;
        for (int i = n - 1; i >= 0; i--) {
          x[i] = isNull[i] ? Double.NaN : x[j--];
        }
      }
      return v;
    }

    @Override
    void skip(int n) {
      long bytes = (long) skipNulls(n) * (single ? 4 : 8);
      if (pos + bytes > end) {
        throw new IllegalStateException("ORC floating-point stream ends before its values");
      }
      pos += (int) bytes;
    }
  }

  private static final class DictionaryColumn extends Column {
    private final RleV2Reader ids;
    private final byte[] dictionary;
    /** Entry e is dictionary[offsets[e] .. offsets[e + 1]). */
    private final int[] offsets;
    private int[] scratch = new int[0];
    /** Whether rows come as ids ({@link #readIds}); off for a stripe whose dictionary repeats an entry. */
    private boolean asDictionary;
    /** The stripe's dictionary as ours (made at the first read). */
    private dev.travertine.vector.StringDictionary strings;

    DictionaryColumn(ByteRleReader present, RleV2Reader ids, Stream dictionary, RleV2Reader lengths, int size,
        boolean asDictionary) {
      super(present);
      this.ids = ids;
      this.asDictionary = asDictionary && size > 0;
      this.dictionary = dictionary.bytes();
      int[] len = new int[size];
      lengths.readInts(len, 0, size);
      this.offsets = new int[size + 1];
      long o = 0;
      for (int e = 0; e < size; e++) {
        if (len[e] < 0) {
          throw new IllegalStateException("ORC string dictionary: a negative length");
        }
        o += len[e];
        offsets[e + 1] = (int) Math.min(o, Integer.MAX_VALUE);
      }
      if (o > dictionary.length()) {
        throw new IllegalStateException("ORC string dictionary: entries of " + o + " bytes in "
            + dictionary.length());
      }
    }

    @Override
    ColumnVector read(ColumnVector v, int n) {
      if (asDictionary && (strings != null || ourDictionary())) {
        return readIds(n);
      }
      int k = nulls(v, n);
      BytesColumnVector s = (BytesColumnVector) v;
      if (scratch.length < n) {
        scratch = new int[n];
      }
      int[] id = scratch;
      ids.readInts(id, 0, k);
      byte[][] vec = s.vector;
      int[] start = s.start;
      int[] length = s.length;
      int[] off = offsets;
      int entries = off.length - 1;
      byte[] dict = dictionary;
      if (k == n) {
        for (int i = 0; i < n; i++) {
          int e = id[i];
          if (e < 0 || e >= entries) {
            throw new IllegalStateException("ORC string column: id " + e + " of a dictionary of " + entries);
          }
          if (vec[i] != dict) {
            vec[i] = dict; // a vector read again holds the stripe's dictionary already: no store, no card mark
          }
          start[i] = off[e];
          length[i] = off[e + 1] - off[e];
        }
        return v;
      }
      boolean[] isNull = v.isNull;
      int j = 0;
      for (int i = 0; i < n; i++) {
        vec[i] = dict;
        if (isNull[i]) {
          start[i] = 0;
          length[i] = 0;
          continue;
        }
        int e = id[j++];
        if (e < 0 || e >= entries) {
          throw new IllegalStateException("ORC string column: id " + e + " of a dictionary of " + entries);
        }
        start[i] = off[e];
        length[i] = off[e + 1] - off[e];
      }
      return v;
    }

    @Override
    void skip(int n) {
      ids.skip(skipNulls(n));
    }

    /** Makes the stripe's dictionary ours, entry e as id e; false (and Hive's vectors) when an entry repeats. */
    private boolean ourDictionary() {
      dev.travertine.vector.StringDictionary d = new dev.travertine.vector.StringDictionary();
      int entries = offsets.length - 1;
      for (int e = 0; e < entries; e++) {
        if (d.add(dictionary, offsets[e], offsets[e + 1] - offsets[e]) != e) {
          asDictionary = false;
          return false;
        }
      }
      d.seal(); // its lookup remembers the buffers it was given: the stripe's bytes must not stay reachable from it
      strings = d;
      return true;
    }

    /** The next {@code n} rows as a dictionary vector of ids into {@link #strings} (fresh arrays: it is handed on). */
    private ColumnVector readIds(int n) {
      boolean[] isNull = null;
      int k = n;
      if (present != null) {
        isNull = new boolean[Math.max(n, 1)];
        k = present.readNulls(isNull, n);
        if (k == n) {
          isNull = null;
        }
      }
      int[] id = new int[Math.max(n, 1)];
      ids.readInts(id, 0, k);
      int entries = strings.size();
      for (int i = 0; i < k; i++) {
        if (id[i] < 0 || id[i] >= entries) {
          throw new IllegalStateException("ORC string column: id " + id[i] + " of a dictionary of " + entries);
        }
      }
      if (k < n) {
        int j = k - 1;
        for (int i = n - 1; i >= 0; i--) {
          id[i] = isNull[i] ? 0 : id[j--];
        }
      }
      return strings.vector(id, n, isNull == null, isNull, false);
    }
  }

  /**
   * Strings without a dictionary. Each batch's bytes are copied into an array of their own, as
   * ORC's reader does, so that a vector kept (a top-N's rows, say) does not hold the stripe's.
   */
  private static final class DirectStringColumn extends Column {
    private final byte[] data;
    private final int end;
    private final RleV2Reader lengths;
    private int pos;
    private int[] scratch = new int[0];

    DirectStringColumn(ByteRleReader present, Stream data, RleV2Reader lengths) {
      super(present);
      this.data = data.bytes();
      this.end = data.length();
      this.lengths = lengths;
    }

    @Override
    ColumnVector read(ColumnVector v, int n) {
      int k = nulls(v, n);
      BytesColumnVector s = (BytesColumnVector) v;
      if (scratch.length < n) {
        scratch = new int[n];
      }
      int[] len = scratch;
      long total = lengths(len, k);
      byte[] bytes = Arrays.copyOfRange(data, pos, pos + (int) total);
      pos += (int) total;
      byte[][] vec = s.vector;
      int[] start = s.start;
      int[] length = s.length;
      boolean[] isNull = v.isNull;
      int j = 0;
      int at = 0;
      for (int i = 0; i < n; i++) {
        vec[i] = bytes;
        if (k < n && isNull[i]) {
          start[i] = 0;
          length[i] = 0;
          continue;
        }
        int l = len[j++];
        start[i] = at;
        length[i] = l;
        at += l;
      }
      return v;
    }

    @Override
    void skip(int n) {
      int k = skipNulls(n);
      if (scratch.length < k) {
        scratch = new int[k];
      }
      pos += (int) lengths(scratch, k);
    }

    /** The next {@code k} strings' lengths into {@code len}; returns their sum, checked against the stream. */
    private long lengths(int[] len, int k) {
      lengths.readInts(len, 0, k);
      long total = 0;
      for (int i = 0; i < k; i++) {
        if (len[i] < 0) {
          throw new IllegalStateException("ORC string column: a negative length");
        }
        total += len[i];
      }
      if (pos + total > end) {
        throw new IllegalStateException("ORC string column: " + total + " bytes past its stream's end");
      }
      return total;
    }
  }
}
