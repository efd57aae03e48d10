package dev.travertine.exec.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.travertine.exec.agg.AggCall.AggFunction;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/**
 * Aggregates over our narrow integer vectors ({@link IntegerVector}: SUM and COUNT read them as
 * they are, the others widen them) give what they give over Hive's wide form, with and without
 * GROUP BY (a narrow key is widened too).
 */
class NarrowAggregatesTest {
  private static List<List<Object>> run(List<DataType> types, int[] keys, List<AggCall> calls, List<Batch> in) {
    HashAggregator h = new HashAggregator(types, keys, calls);
    for (Batch b : in) {
      h.add(b);
    }
    List<List<Object>> rows = new ArrayList<>();
    for (Batch b : h.result(1024)) {
      for (int k = 0; k < b.size(); k++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < b.cols().length; c++) {
          TypeKind kind = c < keys.length ? types.get(keys[c]).kind() : calls.get(c - keys.length).type().kind();
          row.add(Vectors.get(b.cols()[c], kind, b.sel()[k]));
        }
        rows.add(row);
      }
    }
    rows.sort((x, y) -> x.toString().compareTo(y.toString()));
    return rows;
  }

  @Test
  void sumsCountsAveragesAndExtremesMatchTheWideForm() {
    Random rnd = new Random(3503);
    for (TypeKind k : new TypeKind[] {TypeKind.TINYINT, TypeKind.SMALLINT, TypeKind.INTEGER}) {
      DataType t = DataType.of(k);
      DataType big = DataType.of(TypeKind.BIGINT);
      List<DataType> types = List.of(t, t);
      List<AggCall> calls = List.of(new AggCall(AggFunction.SUM, 1, false, -1, big),
          new AggCall(AggFunction.COUNT, 1, false, -1, big), new AggCall(AggFunction.COUNT, -1, false, -1, big),
          new AggCall(AggFunction.AVG, 1, false, -1, t), new AggCall(AggFunction.MIN, 1, false, -1, t),
          new AggCall(AggFunction.MAX, 1, false, -1, t), new AggCall(AggFunction.COUNT, 1, true, -1, big));
      for (boolean nulls : new boolean[] {false, true}) {
        List<Batch> wide = new ArrayList<>();
        List<Batch> narrow = new ArrayList<>();
        for (int batch = 0; batch < 5; batch++) {
          int n = 300 + rnd.nextInt(200);
          LongColumnVector key = new LongColumnVector(n);
          LongColumnVector val = new LongColumnVector(n);
          val.noNulls = !nulls;
          for (int i = 0; i < n; i++) {
            key.vector[i] = rnd.nextInt(7);
            val.vector[i] = k == TypeKind.TINYINT ? rnd.nextInt(256) - 128
                : k == TypeKind.SMALLINT ? rnd.nextInt(65536) - 32768 : rnd.nextInt();
            val.isNull[i] = nulls && rnd.nextInt(5) == 0;
          }
          if (batch == 3) {
            val.isRepeating = true;
          }
          int[] sel = batch % 2 == 0 ? Batch.identity(n) : java.util.stream.IntStream.range(0, n)
              .filter(i -> i % 3 != 0).toArray();
          int size = batch % 2 == 0 ? n : sel.length; // the shared identity selection may be longer than n
          wide.add(new Batch(new ColumnVector[] {key, val}, sel, size));
          narrow.add(new Batch(new ColumnVector[] {IntegerVector.narrow(key, k, n), IntegerVector.narrow(val, k, n)},
              sel, size));
        }
        for (int[] keys : List.of(new int[0], new int[] {0})) {
          assertEquals(run(types, keys, calls, wide), run(types, keys, calls, narrow),
              k + " keys=" + keys.length + " nulls=" + nulls);
        }
      }
    }
  }

  /**
   * COUNT(DISTINCT) of strings read as dictionary ids (each entry's string added once per run of
   * its group) counts what it counts over Hive's strings: with and without GROUP BY, NULLs, a
   * vector of one string, a dictionary that grows across batches and one that changes between them.
   */
  @Test
  void countDistinctOfDictionaryStringsMatchesTheWideForm() {
    Random rnd = new Random(3537);
    DataType str = DataType.varchar(-1);
    DataType big = DataType.of(TypeKind.BIGINT);
    List<DataType> types = List.of(big, str);
    List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT, 1, true, -1, big),
        new AggCall(AggFunction.COUNT, 1, false, -1, big));
    List<Batch> wide = new ArrayList<>();
    List<Batch> dict = new ArrayList<>();
    dev.travertine.vector.StringDictionary d = new dev.travertine.vector.StringDictionary();
    for (int batch = 0; batch < 8; batch++) {
      if (batch == 4) {
        d = new dev.travertine.vector.StringDictionary(); // another stripe's dictionary: other ids
      }
      int n = 200 + rnd.nextInt(300);
      LongColumnVector key = new LongColumnVector(n);
      org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector s =
          new org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector(n);
      s.initBuffer();
      int words = 5 + batch * 7; // the dictionary grows batch by batch
      for (int i = 0; i < n; i++) {
        key.vector[i] = rnd.nextInt(4);
        if (batch % 3 == 1 && rnd.nextInt(6) == 0) {
          s.noNulls = false;
          s.isNull[i] = true;
          continue;
        }
        s.setVal(i, ("w" + rnd.nextInt(words) + (batch >= 4 ? "x" : "")).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      if (batch == 6) {
        s.isRepeating = true;
      }
      int[] sel = batch % 2 == 0 ? Batch.identity(n) : java.util.stream.IntStream.range(0, n)
          .filter(i -> i % 3 != 0).toArray();
      int size = batch % 2 == 0 ? n : sel.length;
      wide.add(new Batch(new ColumnVector[] {key, s}, sel, size));
      dict.add(new Batch(new ColumnVector[] {key, dev.travertine.vector.DictionaryVector.encode(s, n, d, 100_000)},
          sel, size));
    }
    for (int[] keys : List.of(new int[0], new int[] {0})) {
      List<List<Object>> want = run(types, keys, calls, wide);
      assertEquals(want, run(types, keys, calls, dict), "keys=" + keys.length);
      assertEquals(keys.length == 0 ? 1 : 4, want.size());
    }
  }
}
