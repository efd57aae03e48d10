package dev.travertine.exec.jmh;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.AggCall.AggFunction;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Input of the GROUP BY benchmarks: column 0 the key (BIGINT or VARCHAR) taking exactly
 * {@code groups} distinct values in random order (one value: every row alike), column 1 a BIGINT
 * to sum. The aggregate is {@code SELECT key, COUNT(*), SUM(v) GROUP BY key}. Two keys
 * ({@code BIGINT,BIGINT}, {@code BIGINT,VARCHAR}): columns 0 and 1 are the keys (together
 * {@code groups} distinct pairs; the second takes 100 values, a VARCHAR one as references into
 * one dictionary buffer, as ORC's dictionary reader hands them out) and column 2 the BIGINT.
 */
final class AggInput {
  private AggInput() {}

  static final DataType BIGINT = DataType.of(TypeKind.BIGINT);
  static final DataType VARCHAR = DataType.varchar(-1);
  static final List<AggCall> COUNT_SUM = List.of(
      new AggCall(AggFunction.COUNT, -1, false, -1, BIGINT),
      new AggCall(AggFunction.SUM, 1, false, -1, BIGINT));

  static final List<AggCall> COUNT_SUM_2 = List.of(
      new AggCall(AggFunction.COUNT, -1, false, -1, BIGINT),
      new AggCall(AggFunction.SUM, 2, false, -1, BIGINT));
  /** Values of the second key of a two-key GROUP BY. */
  static final int SECOND_KEYS = 100;

  static boolean twoKeys(String key) {
    return key.contains(",");
  }

  static DataType keyType(String key) {
    return switch (key) {
      case "BIGINT" -> BIGINT;
      case "VARCHAR" -> VARCHAR;
      default -> throw new IllegalArgumentException("key type BIGINT or VARCHAR, not " + key);
    };
  }

  static Batch[] batches(String key, int groups, int rows, long seed) {
    int[] ids = Data.ids(rows, groups, seed);
    long[] values = Data.uniform(rows, 1_000_000, seed + 1);
    if (twoKeys(key)) {
      return twoKeyBatches(key, ids, values);
    }
    if (key.equals("BIGINT")) {
      return Data.longBatches(Data.scatterAll(ids), values);
    }
    keyType(key);
    byte[][] dictionary = new byte[groups][];
    for (int g = 0; g < groups; g++) {
      dictionary[g] = Data.stringKey(g);
    }
    byte[][] strings = new byte[rows][];
    for (int i = 0; i < rows; i++) {
      strings[i] = dictionary[ids[i]];
    }
    Batch[] longs = Data.longBatches(values);
    Batch[] out = new Batch[longs.length];
    for (int b = 0; b < out.length; b++) {
      out[b] = new Batch(new ColumnVector[] {Data.strings(strings, b * Data.BATCH), longs[b].cols()[0]},
          Data.ALL, Data.BATCH);
    }
    return out;
  }

  private static Batch[] twoKeyBatches(String key, int[] ids, long[] values) {
    String[] types = key.split(",");
    long[] first = new long[ids.length];
    int[] second = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      first[i] = Data.scatter(ids[i] / SECOND_KEYS);
      second[i] = ids[i] % SECOND_KEYS;
    }
    if (keyType(types[1]).kind() == TypeKind.BIGINT) {
      long[] s = new long[ids.length];
      for (int i = 0; i < ids.length; i++) {
        s[i] = second[i];
      }
      return Data.longBatches(first, s, values);
    }
    byte[][] dictionary = new byte[SECOND_KEYS][];
    for (int g = 0; g < SECOND_KEYS; g++) {
      dictionary[g] = Data.stringKey(g);
    }
    Batch[] longs = Data.longBatches(first, values);
    Batch[] out = new Batch[longs.length];
    for (int b = 0; b < out.length; b++) {
      ColumnVector[] c = longs[b].cols();
      out[b] = new Batch(new ColumnVector[] {c[0], Data.dictionaryStrings(dictionary, second, b * Data.BATCH), c[1]},
          Data.ALL, Data.BATCH);
    }
    return out;
  }

  static HashAggregator aggregator(String key) {
    if (twoKeys(key)) {
      String[] types = key.split(",");
      return new HashAggregator(List.of(keyType(types[0]), keyType(types[1]), BIGINT), new int[] {0, 1}, COUNT_SUM_2);
    }
    return new HashAggregator(List.of(keyType(key), BIGINT), new int[] {0}, COUNT_SUM);
  }

  /** Aggregates batches {@code from .. to)} into a new partial aggregate. */
  static HashAggregator partial(String key, Batch[] batches, int from, int to) {
    HashAggregator a = aggregator(key);
    for (int b = from; b < to; b++) {
      a.add(batches[b]);
    }
    return a;
  }

  /** A check that the benchmark computes what it should: groups and the total count. */
  static void check(String key, HashAggregator a, int groups, int rows) {
    if (a.groups() != groups) {
      throw new IllegalStateException("expected " + groups + " groups, got " + a.groups());
    }
    long count = 0;
    for (Batch b : a.result(Data.BATCH)) {
      LongColumnVector c = (LongColumnVector) b.cols()[twoKeys(key) ? 2 : 1];
      for (int i = 0; i < b.size(); i++) {
        count += c.vector[i];
      }
    }
    if (count != rows) {
      throw new IllegalStateException("expected COUNT(*) total " + rows + ", got " + count);
    }
  }
}
