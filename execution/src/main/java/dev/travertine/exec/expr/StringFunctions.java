package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * CHAR_LENGTH, SUBSTRING, POSITION, LOWER, UPPER and || on UTF-8 bytes. Lengths and positions count UTF-16
 * units, as Calcite's Java strings do (a character outside the BMP counts 2); strings with such
 * characters, and LOWER/UPPER of non-ASCII strings, go through {@code java.lang.String}, everything
 * else is done on the bytes (SUBSTRING references the input's bytes).
 */
final class StringFunctions extends VecExpr {
  private final Op op;
  private final VecExpr[] args;

  StringFunctions(Op op, List<VecExpr> args, DataType type) {
    super(type);
    this.op = op;
    this.args = args.toArray(new VecExpr[0]);
  }

  /** The string's length in UTF-16 units. */
  static int utf16Length(byte[] b, int s, int l) {
    int n = 0;
    for (int k = s, e = s + l; k < e; k++) {
      int c = b[k];
      if ((c & 0xC0) != 0x80) {
        n += (c & 0xF8) == 0xF0 ? 2 : 1;
      }
    }
    return n;
  }

  private static boolean hasSupplementary(byte[] b, int s, int l) {
    for (int k = s, e = s + l; k < e; k++) {
      if ((b[k] & 0xF8) == 0xF0) {
        return true;
      }
    }
    return false;
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    ColumnVector r = Vecs.alloc(type, Vecs.capacity(batch));
    if (n == 0) {
      return r;
    }
    ColumnVector[] in = new ColumnVector[args.length];
    boolean allRep = true;
    for (int k = 0; k < args.length; k++) {
      in[k] = args[k].eval(batch);
      allRep &= in[k].isRepeating;
    }
    int[] sel = batch.sel();
    int m = n;
    if (allRep) {
      sel = new int[] {0};
      m = 1;
      r.isRepeating = true;
    }
    BytesColumnVector s = (BytesColumnVector) in[0];
    boolean sr = s.isRepeating;
    for (int k = 0; k < m; k++) {
      int i = sel[k];
      boolean nul = false;
      for (ColumnVector v : in) {
        nul |= Vecs.isNull(v, i);
      }
      if (nul) {
        Vecs.setNull(r, i);
        if (r instanceof BytesColumnVector b) {
          b.setRef(i, Vecs.EMPTY, 0, 0);
        }
        continue;
      }
      r.isNull[i] = false;
      int p = sr ? 0 : i;
      byte[] bytes = s.vector[p];
      int st = s.start[p];
      int len = s.length[p];
      switch (op) {
        case CHAR_LENGTH -> ((LongColumnVector) r).vector[i] = utf16Length(bytes, st, len);
        case POSITION -> {
          BytesColumnVector h = (BytesColumnVector) in[1];
          int q = h.isRepeating ? 0 : i;
          byte[] needle = st == 0 && len == bytes.length ? bytes : java.util.Arrays.copyOfRange(bytes, st, st + len);
          int at = LikePattern.indexOf(h.vector[q], h.start[q], h.start[q] + h.length[q], needle);
          ((LongColumnVector) r).vector[i] = at < 0 ? 0 : utf16Length(h.vector[q], h.start[q], at - h.start[q]) + 1;
        }
        case LOWER, UPPER -> caseMap(bytes, st, len, (BytesColumnVector) r, i);
        case CONCAT -> {
          BytesColumnVector t = (BytesColumnVector) in[1];
          int q = t.isRepeating ? 0 : i;
          ((BytesColumnVector) r).setConcat(i, bytes, st, len, t.vector[q], t.start[q], t.length[q]);
        }
        case SUBSTRING -> {
          long from = Vecs.longValues(in[1])[in[1].isRepeating ? 0 : i];
          long count = args.length > 2 ? Vecs.longValues(in[2])[in[2].isRepeating ? 0 : i] : Long.MAX_VALUE / 4;
          substring(bytes, st, len, from, count, (BytesColumnVector) r, i);
        }
        default -> throw new IllegalStateException(op.name());
      }
    }
    return r;
  }

  private void caseMap(byte[] b, int s, int l, BytesColumnVector r, int i) {
    if (!TextFormats.ascii(b, s, l)) {
      String str = TextFormats.string(b, s, l);
      String t = op == Op.LOWER ? str.toLowerCase(Locale.ROOT) : str.toUpperCase(Locale.ROOT);
      r.setVal(i, t.getBytes(StandardCharsets.UTF_8));
      return;
    }
    r.ensureValPreallocated(l);
    byte[] out = r.getValPreallocatedBytes();
    int o = r.getValPreallocatedStart();
    boolean lower = op == Op.LOWER;
    for (int k = 0; k < l; k++) {
      byte c = b[s + k];
      if (lower && c >= 'A' && c <= 'Z') {
        c += 32;
      } else if (!lower && c >= 'a' && c <= 'z') {
        c -= 32;
      }
      out[o + k] = c;
    }
    r.setValPreallocated(i, l);
  }

  /** SQL SUBSTRING(s FROM from FOR count), 1-based, in UTF-16 units. */
  private static void substring(byte[] b, int s, int l, long from, long count, BytesColumnVector r, int i) {
    if (count < 0) {
      throw new IllegalArgumentException("Substring error: negative substring length not allowed");
    }
    long end = from + count; // exclusive, 1-based
    long lo = Math.max(from, 1);
    if (hasSupplementary(b, s, l)) {
      String str = TextFormats.string(b, s, l);
      long hi = Math.min(end, str.length() + 1L);
      String t = lo >= hi ? "" : str.substring((int) lo - 1, (int) hi - 1);
      r.setVal(i, t.getBytes(StandardCharsets.UTF_8));
      return;
    }
    // walk characters: position q (1-based) starts at byte k
    int e = s + l;
    int k = s;
    long q = 1;
    while (k < e && q < lo) {
      k += charBytes(b[k]);
      q++;
    }
    int startByte = k;
    while (k < e && q < end) {
      k += charBytes(b[k]);
      q++;
    }
    r.setRef(i, b, startByte, Math.min(k, e) - startByte);
  }

  private static int charBytes(byte lead) {
    int c = lead & 0xFF;
    if (c < 0x80) {
      return 1;
    }
    if (c >= 0xF0) {
      return 4;
    }
    return c >= 0xE0 ? 3 : 2;
  }
}
