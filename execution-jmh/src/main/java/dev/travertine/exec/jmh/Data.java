package dev.travertine.exec.jmh;

import dev.travertine.vector.Batch;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Synthetic input for the benchmarks: batches of {@value #BATCH} rows as a scan hands them on
 * (ORC column vectors, no NULLs, every row selected). Seeds are fixed, so every run sees the same
 * data.
 */
final class Data {
  private Data() {}

  /** Rows per batch, as the scan decodes them. */
  static final int BATCH = 1024;

  /** The selection of a full batch, 0 .. BATCH-1 (shared, never written). */
  static final int[] ALL = identity(BATCH);

  static int[] identity(int n) {
    int[] s = new int[n];
    for (int i = 0; i < n; i++) {
      s[i] = i;
    }
    return s;
  }

  /** {@code rows / BATCH} batches whose columns are {@code cols[c][row]}; rows a multiple of BATCH. */
  static Batch[] longBatches(long[]... cols) {
    int rows = cols[0].length;
    if (rows % BATCH != 0) {
      throw new IllegalArgumentException("rows must be a multiple of " + BATCH);
    }
    Batch[] out = new Batch[rows / BATCH];
    for (int b = 0; b < out.length; b++) {
      ColumnVector[] vs = new ColumnVector[cols.length];
      for (int c = 0; c < cols.length; c++) {
        LongColumnVector v = new LongColumnVector(BATCH);
        System.arraycopy(cols[c], b * BATCH, v.vector, 0, BATCH);
        v.noNulls = true;
        vs[c] = v;
      }
      out[b] = new Batch(vs, ALL, BATCH);
    }
    return out;
  }

  /**
   * A string column as ORC's direct string reader fills it: each batch's values back to back in
   * one buffer, every row a reference into it.
   */
  static BytesColumnVector strings(byte[][] values, int from) {
    int total = 0;
    for (int i = 0; i < BATCH; i++) {
      total += values[from + i].length;
    }
    byte[] buf = new byte[total];
    BytesColumnVector v = new BytesColumnVector(BATCH);
    int p = 0;
    for (int i = 0; i < BATCH; i++) {
      byte[] s = values[from + i];
      System.arraycopy(s, 0, buf, p, s.length);
      v.setRef(i, buf, p, s.length);
      p += s.length;
    }
    v.noNulls = true;
    return v;
  }

  /**
   * A string column as ORC's dictionary reader fills it: every row a reference into one buffer
   * holding the dictionary, row i being {@code dictionary[ids[from + i]]}.
   */
  static BytesColumnVector dictionaryStrings(byte[][] dictionary, int[] ids, int from) {
    int total = 0;
    for (byte[] d : dictionary) {
      total += d.length;
    }
    byte[] buf = new byte[total];
    int[] starts = new int[dictionary.length];
    int p = 0;
    for (int d = 0; d < dictionary.length; d++) {
      starts[d] = p;
      System.arraycopy(dictionary[d], 0, buf, p, dictionary[d].length);
      p += dictionary[d].length;
    }
    BytesColumnVector v = new BytesColumnVector(BATCH);
    for (int i = 0; i < BATCH; i++) {
      int d = ids[from + i];
      v.setRef(i, buf, starts[d], dictionary[d].length);
    }
    v.noNulls = true;
    return v;
  }

  /** Uniform values in [0, bound). */
  static long[] uniform(int rows, long bound, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] x = new long[rows];
    for (int i = 0; i < rows; i++) {
      x[i] = r.nextLong(bound);
    }
    return x;
  }

  /**
   * Ids in [0, distinct) in random order, each of them at least once (rows >= distinct): the
   * first {@code distinct} rows take every id, the rest random ones, then everything is shuffled.
   */
  static int[] ids(int rows, int distinct, long seed) {
    if (rows < distinct) {
      throw new IllegalArgumentException("rows < distinct");
    }
    SplittableRandom r = new SplittableRandom(seed);
    int[] x = new int[rows];
    for (int i = 0; i < rows; i++) {
      x[i] = i < distinct ? i : r.nextInt(distinct);
    }
    for (int i = rows - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
    return x;
  }

  /** A BIGINT key for an id: scattered over the whole range, as user or session ids are. */
  static long scatter(int id) {
    long h = (id + 1) * 0x9E3779B97F4A7C15L;
    return (h ^ (h >>> 31)) & Long.MAX_VALUE;
  }

  static long[] scatterAll(int[] ids) {
    long[] x = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      x[i] = scatter(ids[i]);
    }
    return x;
  }

  /** A string key for an id, 19-27 bytes (a login, a search phrase, a short URL path). */
  static byte[] stringKey(int id) {
    long h = scatter(id);
    String s = "user-" + String.format("%016x", h).substring(0, 8 + (int) (h % 9)) + "@ex.io";
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final String[] SITES = {
    "www.example.com", "shop.example-store.net", "news.daily-herald.org", "m.videohub.tv",
    "forum.gadgets-talk.com", "maps.travelguide.io", "blog.cooking-at-home.net", "www.market.ru",
    "img.photoshare.com", "api.weatherly.app", "www.gooddeals.biz", "docs.goat-tools.dev",
  };
  private static final String[] PATHS = {
    "catalog/item", "search", "article/2024/05", "watch", "thread/view", "place", "recipes/soup",
    "listing/flat", "album/photo", "v2/forecast", "offers/today", "guide/getting-started",
  };
  private static final String[] SOURCES = {
    "newsletter", "direct", "bing", "facebook", "twitter", "yandex", "partner", "email", "organic",
  };

  /**
   * URLs of about 68 bytes; {@code matchPercent} % of them contain "google" (as the site, a
   * referrer source or a path), and many contain near misses ("goo", "good", "goat", "g").
   */
  static byte[][] urls(int rows, double matchPercent, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[][] out = new byte[rows][];
    for (int i = 0; i < rows; i++) {
      boolean hit = r.nextDouble() * 100 < matchPercent;
      String site = SITES[r.nextInt(SITES.length)];
      String path = PATHS[r.nextInt(PATHS.length)];
      String src = SOURCES[r.nextInt(SOURCES.length)];
      if (hit) {
        switch (r.nextInt(3)) {
          case 0 -> site = "www.google.com";
          case 1 -> src = "google";
          default -> path = "search/google-results";
        }
      }
      String u = "https://" + site + "/" + path + "?id=" + r.nextInt(10_000_000) + "&utm_source=" + src;
      out[i] = u.getBytes(StandardCharsets.UTF_8);
    }
    return out;
  }
}
