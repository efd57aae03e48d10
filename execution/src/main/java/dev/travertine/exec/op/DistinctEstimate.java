package dev.travertine.exec.op;

/**
 * A HyperLogLog sketch of 32-bit key hashes: about how many distinct keys were added (within a
 * few percent), in 2 KiB. What a worker's partial aggregate uses to tell keys that repeat from
 * keys that do not.
 */
final class DistinctEstimate {
  private static final int P = 11;
  private static final int M = 1 << P;
  private final byte[] registers = new byte[M];

  /** Adds a key's hash (high bits pick the register, so they must be as good as the low ones). */
  void add(int hash) {
    long h = (hash & 0xffffffffL) * 0x9E3779B97F4A7C15L; // spread the 32 bits over 64
    h ^= h >>> 29;
    int r = (int) (h >>> (64 - P));
    int rank = Long.numberOfLeadingZeros((h << P) | (1L << (P - 1))) + 1;
    if (rank > registers[r]) {
      registers[r] = (byte) rank;
    }
  }

  /** The estimated number of distinct hashes added. */
  long estimate() {
    double sum = 0;
    int zeros = 0;
    for (byte b : registers) {
      sum += 1.0 / (1L << b);
      if (b == 0) {
        zeros++;
      }
    }
    double alpha = 0.7213 / (1 + 1.079 / M);
    double e = alpha * M * M / sum;
    if (e <= 2.5 * M && zeros > 0) {
      e = M * Math.log((double) M / zeros); // linear counting for small sets
    }
    return Math.round(e);
  }
}
