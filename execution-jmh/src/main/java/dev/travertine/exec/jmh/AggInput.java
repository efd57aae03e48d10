package dev.travertine.exec.jmh;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.AggCall.AggFunction;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.mergetree.scan.ScanBatch;
import dev.travertine.mergetree.schema.DataType;
import dev.travertine.mergetree.schema.TypeKind;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Input of the GROUP BY benchmarks: column 0 the key (BIGINT or VARCHAR) taking exactly
 * {@code groups} distinct values in random order (one value: every row alike), column 1 a BIGINT
 * to sum. The aggregate is {@code SELECT key, COUNT(*), SUM(v) GROUP BY key}.
 */
final class AggInput {
  private AggInput() {}

  static final DataType BIGINT = DataType.of(TypeKind.BIGINT);
  static final DataType VARCHAR = DataType.varchar(-1);
  static final List<AggCall> COUNT_SUM = List.of(
      new AggCall(AggFunction.COUNT, -1, false, -1, BIGINT),
      new AggCall(AggFunction.SUM, 1, false, -1, BIGINT));

  static DataType keyType(String key) {
    return switch (key) {
      case "BIGINT" -> BIGINT;
      case "VARCHAR" -> VARCHAR;
      default -> throw new IllegalArgumentException("key type BIGINT or VARCHAR, not " + key);
    };
  }

  static ScanBatch[] batches(String key, int groups, int rows, long seed) {
    int[] ids = Data.ids(rows, groups, seed);
    long[] values = Data.uniform(rows, 1_000_000, seed + 1);
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
    ScanBatch[] longs = Data.longBatches(values);
    ScanBatch[] out = new ScanBatch[longs.length];
    for (int b = 0; b < out.length; b++) {
      out[b] = new ScanBatch(new ColumnVector[] {Data.strings(strings, b * Data.BATCH), longs[b].cols()[0]},
          Data.ALL, Data.BATCH);
    }
    return out;
  }

  static HashAggregator aggregator(String key) {
    return new HashAggregator(List.of(keyType(key), BIGINT), new int[] {0}, COUNT_SUM);
  }

  /** Aggregates batches {@code from .. to)} into a new partial aggregate. */
  static HashAggregator partial(String key, ScanBatch[] batches, int from, int to) {
    HashAggregator a = aggregator(key);
    for (int b = from; b < to; b++) {
      a.add(batches[b]);
    }
    return a;
  }

  /** A check that the benchmark computes what it should: groups and the total count. */
  static void check(HashAggregator a, int groups, int rows) {
    if (a.groups() != groups) {
      throw new IllegalStateException("expected " + groups + " groups, got " + a.groups());
    }
    long count = 0;
    for (ScanBatch b : a.result(Data.BATCH)) {
      LongColumnVector c = (LongColumnVector) b.cols()[1];
      for (int i = 0; i < b.size(); i++) {
        count += c.vector[i];
      }
    }
    if (count != rows) {
      throw new IllegalStateException("expected COUNT(*) total " + rows + ", got " + count);
    }
  }
}
