package dev.travertine.exec.jmh;

import org.openjdk.jmh.annotations.Param;

/**
 * {@link HashAggBench} with two keys: {@code GROUP BY user, phrase} as in ClickBench's Q16-Q18
 * (a scattered BIGINT and a 100-value second key, a dictionary-encoded VARCHAR or a BIGINT).
 */
public class BenchmarkHashAggTwoKeys extends HashAggBench {
  @Param({"BIGINT,VARCHAR", "BIGINT,BIGINT"})
  public String keys;

  @Param({"100000", "2000000"})
  public int groups;

  @Override String key() {
    return keys;
  }

  @Override int groups() {
    return groups;
  }
}
