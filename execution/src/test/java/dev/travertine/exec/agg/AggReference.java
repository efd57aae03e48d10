package dev.travertine.exec.agg;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.travertine.exec.op.VectorFixtures;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * GROUP BY computed row by row with plain Java collections: what {@link HashAggregator} must
 * produce. Values are {@link VectorFixtures} plain values.
 */
public final class AggReference {
  private AggReference() {}

  /** One call's running state for one group. */
  private static final class Acc {
    long count;
    Set<Object> distinct = new HashSet<>();
    Object best;
    long longSum;
    double doubleSum;
    BigDecimal decimalSum = BigDecimal.ZERO;
  }

  /** Group key (as a list, NULLs included) -> the results of the calls, in order. */
  public static Map<List<Object>, List<Object>> aggregate(List<Object[]> rows, List<DataType> types, int[] keys,
      List<AggCall> calls) {
    Map<List<Object>, Acc[]> groups = new LinkedHashMap<>();
    if (keys.length == 0) {
      groups.put(List.of(), newAccs(calls.size()));
    }
    for (Object[] row : rows) {
      List<Object> key = new ArrayList<>(keys.length);
      for (int k : keys) {
        key.add(row[k]);
      }
      Acc[] accs = groups.computeIfAbsent(key, x -> newAccs(calls.size()));
      for (int i = 0; i < calls.size(); i++) {
        AggCall c = calls.get(i);
        if (c.filter() >= 0 && !Objects.equals(row[c.filter()], 1L)) {
          continue;
        }
        Acc a = accs[i];
        if (c.arg() < 0) {
          a.count++;
          continue;
        }
        Object x = row[c.arg()];
        if (x == null) {
          continue;
        }
        DataType t = types.get(c.arg());
        a.count++;
        if (c.distinct()) {
          a.distinct.add(x);
        }
        switch (c.function()) {
          case SUM, SUM0, AVG -> {
            switch (t.kind()) {
              case REAL, DOUBLE -> a.doubleSum += (Double) x;
              case DECIMAL -> a.decimalSum = a.decimalSum.add((BigDecimal) x);
              default -> a.longSum += (Long) x;
            }
          }
          case MIN, MAX -> {
            int cmp = a.best == null ? 0 : VectorFixtures.compare(t, x, a.best);
            if (a.best == null || (c.function() == AggCall.AggFunction.MAX ? cmp > 0 : cmp < 0)) {
              a.best = x;
            }
          }
          default -> { }
        }
      }
    }
    Map<List<Object>, List<Object>> out = new LinkedHashMap<>();
    for (Map.Entry<List<Object>, Acc[]> e : groups.entrySet()) {
      List<Object> results = new ArrayList<>();
      for (int i = 0; i < calls.size(); i++) {
        AggCall c = calls.get(i);
        results.add(finish(c, c.arg() < 0 ? null : types.get(c.arg()), e.getValue()[i]));
      }
      out.put(e.getKey(), results);
    }
    return out;
  }

  private static Acc[] newAccs(int n) {
    Acc[] a = new Acc[n];
    for (int i = 0; i < n; i++) {
      a[i] = new Acc();
    }
    return a;
  }

  private static Object finish(AggCall c, DataType argType, Acc a) {
    switch (c.function()) {
      case COUNT:
        return c.distinct() ? (long) a.distinct.size() : a.count;
      case MIN:
      case MAX:
        return a.best;
      default:
        break;
    }
    boolean empty = a.count == 0;
    if (empty && c.function() != AggCall.AggFunction.SUM0) {
      return null;
    }
    TypeKind in = argType.kind();
    TypeKind out = c.type().kind();
    if (c.function() != AggCall.AggFunction.AVG) {
      return switch (in) {
        case REAL, DOUBLE -> a.doubleSum;
        case DECIMAL -> a.decimalSum.stripTrailingZeros();
        default -> out.isDoubleBacked() ? (Object) (double) a.longSum : (Object) a.longSum;
      };
    }
    return switch (in) {
      case REAL, DOUBLE -> a.doubleSum / a.count;
      case DECIMAL -> a.decimalSum.divide(BigDecimal.valueOf(a.count), MathContext.DECIMAL128)
          .setScale(c.type().scale(), RoundingMode.HALF_UP).stripTrailingZeros();
      default -> out.isDoubleBacked() ? (Object) ((double) a.longSum / a.count) : (Object) (a.longSum / a.count);
    };
  }

  /** The aggregator's output as key -> results; fails on a group output twice. */
  /** The groups of several aggregators together: the partitions of one result, no group in two. */
  public static Map<List<Object>, List<Object>> actual(List<HashAggregator> parts, List<DataType> types, int[] keys,
      List<AggCall> calls, int batchSize) {
    Map<List<Object>, List<Object>> out = new LinkedHashMap<>();
    for (HashAggregator h : parts) {
      actual(h, types, keys, calls, batchSize).forEach((k, v) -> {
        if (out.put(k, v) != null) {
          fail("group " + k + " is in two partitions");
        }
      });
    }
    return out;
  }

  public static Map<List<Object>, List<Object>> actual(HashAggregator h, List<DataType> types, int[] keys,
      List<AggCall> calls, int batchSize) {
    List<DataType> outTypes = new ArrayList<>();
    for (int k : keys) {
      outTypes.add(types.get(k));
    }
    for (AggCall c : calls) {
      outTypes.add(c.type());
    }
    Map<List<Object>, List<Object>> out = new LinkedHashMap<>();
    int total = 0;
    for (Batch b : h.result(batchSize)) {
      assertTrue(b.size() <= batchSize && b.size() > 0, "batch of " + b.size());
      total += b.size();
      for (Object[] row : VectorFixtures.rows(b, outTypes)) {
        List<Object> key = new ArrayList<>(Arrays.asList(row).subList(0, keys.length));
        List<Object> vals = new ArrayList<>(Arrays.asList(row).subList(keys.length, row.length));
        if (out.put(key, vals) != null) {
          fail("group " + key + " is output twice");
        }
      }
    }
    if (total != h.groups()) {
      fail("output " + total + " rows for " + h.groups() + " groups");
    }
    return out;
  }

  /** Fails with the first differences (per group and call) between expected and actual. */
  public static void assertSame(String what, Map<List<Object>, List<Object>> expected, Map<List<Object>, List<Object>> actual,
      List<AggCall> calls) {
    List<String> diffs = new ArrayList<>();
    for (List<Object> k : expected.keySet()) {
      if (!actual.containsKey(k)) {
        diffs.add("missing group " + k);
      }
    }
    for (List<Object> k : actual.keySet()) {
      if (!expected.containsKey(k)) {
        diffs.add("unexpected group " + k);
      }
    }
    for (Map.Entry<List<Object>, List<Object>> e : expected.entrySet()) {
      List<Object> got = actual.get(e.getKey());
      if (got == null) {
        continue;
      }
      for (int i = 0; i < calls.size(); i++) {
        Object x = e.getValue().get(i);
        Object y = got.get(i);
        if (!Objects.equals(x, y)) {
          diffs.add("group " + e.getKey() + " " + calls.get(i) + " [" + i + "]: expected " + x + ", got " + y);
        }
      }
    }
    if (!diffs.isEmpty()) {
      fail(what + ": " + diffs.size() + " differences (" + expected.size() + " groups expected, "
          + actual.size() + " output), first: \n  " + String.join("\n  ", diffs.subList(0, Math.min(15, diffs.size()))));
    }
  }
}
