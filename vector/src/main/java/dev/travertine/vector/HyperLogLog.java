package dev.travertine.vector;

/**
 * A HyperLogLog sketch (Flajolet et al.): about how many distinct values were added, within a
 * few percent (standard error 1.04 / √2048 ≈ 2.3 %), in 2,048 one-byte registers. Sketches of
 * the same values union exactly ({@link #merge}), so a table's sketch is the union of its parts'.
 * Values go in as 64-bit hashes: {@link #add(long)} takes one already well mixed ({@link Hashing}),
 * {@link #addValue(long)} mixes a raw value first. A partial aggregate tells repeating keys from unique
 * ones with it; each part stores one per column for the planner's distinct counts.
 */
public final class HyperLogLog {
  private static final int P = 11;

  /** Registers. */
  public static final int SIZE = 1 << P;

  private static final int DENSE = 1;
  private static final int SPARSE = 2;

  private final byte[] registers;

  public HyperLogLog() {
    this.registers = new byte[SIZE];
  }

  private HyperLogLog(byte[] registers) {
    this.registers = registers;
  }

  /** Adds a value whose 64-bit hash is well mixed (every bit as good as any other). */
  public void add(long hash) {
    int r = (int) (hash >>> (64 - P));
    int rank = Long.numberOfLeadingZeros((hash << P) | (1L << (P - 1))) + 1;
    if (rank > registers[r]) {
      registers[r] = (byte) rank;
    }
  }

  /** Adds a raw value (a long, a double's bits, a weaker hash): mixed first ({@link Hashing#mix64}). */
  public void addValue(long value) {
    add(Hashing.mix64(value));
  }

  /** Adds every value {@code other} holds (the sketch of the union of both sets). */
  public void merge(HyperLogLog other) {
    byte[] o = other.registers;
    for (int i = 0; i < SIZE; i++) {
      if (o[i] > registers[i]) {
        registers[i] = o[i];
      }
    }
  }

  /** Whether nothing was added. */
  public boolean isEmpty() {
    for (byte b : registers) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** The estimated number of distinct values added. */
  public long estimate() {
    double sum = 0;
    int zeros = 0;
    for (byte b : registers) {
      sum += 1.0 / (1L << b);
      if (b == 0) {
        zeros++;
      }
    }
    double alpha = 0.7213 / (1 + 1.079 / SIZE);
    double e = alpha * SIZE * SIZE / sum;
    if (e <= 2.5 * SIZE && zeros > 0) {
      e = SIZE * Math.log((double) SIZE / zeros); // linear counting for small sets
    }
    return Math.round(e);
  }

  /**
   * Writes the sketch to {@code out}: its non-zero registers as (index, value) pairs while there are
   * few (a part of a few rows costs a few bytes per column), else all {@link #SIZE} of them.
   */
  public void writeTo(java.io.DataOutput out) throws java.io.IOException {
    int used = 0;
    for (byte b : registers) {
      if (b != 0) {
        used++;
      }
    }
    if (used * 3 < SIZE) {
      out.writeByte(SPARSE);
      out.writeShort(used);
      for (int i = 0; i < SIZE; i++) {
        if (registers[i] != 0) {
          out.writeShort(i);
          out.writeByte(registers[i]);
        }
      }
    } else {
      out.writeByte(DENSE);
      out.write(registers);
    }
  }

  /** Reads a sketch {@link #writeTo} wrote; {@link IllegalArgumentException} for anything else. */
  public static HyperLogLog readFrom(java.io.DataInput in) throws java.io.IOException {
    byte[] r = new byte[SIZE];
    int mode = in.readByte();
    if (mode == DENSE) {
      in.readFully(r);
    } else if (mode == SPARSE) {
      int n = in.readShort();
      for (int k = 0; k < n; k++) {
        int i = in.readShort();
        if (i < 0 || i >= SIZE) {
          throw new IllegalArgumentException("Not a HyperLogLog sketch: register " + i);
        }
        r[i] = in.readByte();
      }
    } else {
      throw new IllegalArgumentException("Not a HyperLogLog sketch: mode " + mode);
    }
    for (byte x : r) {
      if (x < 0 || x > 64 - P + 1) {
        throw new IllegalArgumentException("Not a HyperLogLog sketch: register value " + x);
      }
    }
    return new HyperLogLog(r);
  }

  /** Passes over a sketch {@link #writeTo} wrote, reading only its mode and length. */
  public static void skip(java.io.DataInput in) throws java.io.IOException {
    int mode = in.readByte();
    int n = mode == DENSE ? SIZE : mode == SPARSE ? 3 * in.readShort() : -1;
    if (n < 0) {
      throw new IllegalArgumentException("Not a HyperLogLog sketch: mode " + mode);
    }
    if (in.skipBytes(n) != n) {
      throw new java.io.EOFException("A HyperLogLog sketch cut short");
    }
  }

  public HyperLogLog copy() {
    return new HyperLogLog(registers.clone());
  }
}
