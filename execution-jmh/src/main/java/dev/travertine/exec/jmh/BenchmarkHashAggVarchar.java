package dev.travertine.exec.jmh;

import org.openjdk.jmh.annotations.Param;

/** {@link HashAggBench} with a VARCHAR key of 19-27 bytes (serialized keys in a byte table). */
public class BenchmarkHashAggVarchar extends HashAggBench {
  @Param({"100000"})
  public int groups;

  @Override String key() {
    return "VARCHAR";
  }

  @Override int groups() {
    return groups;
  }
}
