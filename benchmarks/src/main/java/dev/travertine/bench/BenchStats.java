package dev.travertine.bench;

import java.util.List;

/** Statistics the benchmark harnesses share. */
final class BenchStats {
  private BenchStats() {}

  /** The median (the mean of the middle two for an even count). */
  static double median(List<Double> xs) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }

  /** CPU time of this JVM so far (every thread, GC included), in nanoseconds. */
  static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
