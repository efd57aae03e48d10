package dev.travertine.exec.jmh;

import org.openjdk.jmh.annotations.Param;

/** {@link HashAggBench} with a BIGINT key (a long-keyed group table), 1 to 2 M groups. */
public class BenchmarkHashAggBigint extends HashAggBench {
  @Param({"1", "100000", "2000000"})
  public int groups;

  @Override String key() {
    return "BIGINT";
  }

  @Override int groups() {
    return groups;
  }
}
