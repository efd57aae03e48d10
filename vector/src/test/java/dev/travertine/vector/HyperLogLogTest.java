package dev.travertine.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Estimates within a few percent of the true distinct count; unions and round trips exact. */
class HyperLogLogTest {
  private static void assertNear(long expected, long estimate) {
    double err = Math.abs(estimate - expected) / (double) Math.max(1, expected);
    assertTrue(err < 0.08, expected + " estimated as " + estimate);
  }

  @Test void estimatesRandomAndSequentialValuesWithinAFewPercent() {
    for (int n : new int[] {1, 10, 1000, 50_000, 2_000_000}) {
      HyperLogLog random = new HyperLogLog();
      HyperLogLog sequential = new HyperLogLog();
      HyperLogLog sparse = new HyperLogLog();
      Random rnd = new Random(n);
      for (int i = 0; i < n; i++) {
        int h = rnd.nextInt();
        random.addValue(h & 0xffffffffL);
        random.addValue(h & 0xffffffffL); // repeats count once
        sequential.addValue(i);
        sparse.addValue(i * 32L + (i % 8)); // TPC-H's order keys: 8 of each 32
      }
      // random ints may repeat: count the distinct ones as the sketch should
      assertNear(n, sequential.estimate());
      assertNear(n, sparse.estimate());
      assertNear(n, random.estimate());
    }
    assertEquals(0, new HyperLogLog().estimate());
    assertTrue(new HyperLogLog().isEmpty());
  }

  @Test void unionOfSketchesIsTheSketchOfTheUnion() {
    HyperLogLog a = new HyperLogLog();
    HyperLogLog b = new HyperLogLog();
    HyperLogLog both = new HyperLogLog();
    for (long v = 0; v < 300_000; v++) {
      (v < 200_000 ? a : b).addValue(v); // b holds 200,000 .. 300,000
      if (v >= 100_000) {
        a.addValue(v - 100_000); // a holds 0 .. 200,000 once more: no new values
      }
      both.addValue(v);
    }
    HyperLogLog u = a.copy();
    u.merge(b);
    assertEquals(both.estimate(), u.estimate());
    assertNear(300_000, u.estimate());
    assertNear(200_000, a.estimate()); // the copy was merged into, not a
  }

  private static byte[] bytes(HyperLogLog h) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    h.writeTo(new DataOutputStream(b));
    return b.toByteArray();
  }

  private static HyperLogLog read(byte[] b) throws IOException {
    return HyperLogLog.readFrom(new DataInputStream(new ByteArrayInputStream(b)));
  }

  @Test void roundTripsSparseAndDenseAndRejectsGarbage() throws IOException {
    for (int n : new int[] {0, 3, 600, 100_000}) {
      HyperLogLog a = new HyperLogLog();
      for (long v = 0; v < n; v++) {
        a.addValue(v * 7);
      }
      byte[] b = bytes(a);
      HyperLogLog back = read(b);
      assertEquals(a.estimate(), back.estimate());
      HyperLogLog u = back.copy();
      u.merge(a); // same registers: the union changes nothing
      assertEquals(a.estimate(), u.estimate());
      assertTrue(b.length <= (n < 600 ? 3 + 3 * n : 1 + HyperLogLog.SIZE), n + " values took " + b.length + " bytes");
    }
    // skipping passes over a sparse and a dense sketch to the one after them
    HyperLogLog sparse = new HyperLogLog();
    HyperLogLog dense = new HyperLogLog();
    HyperLogLog last = new HyperLogLog();
    for (long v = 0; v < 50_000; v++) {
      dense.addValue(v);
      last.addValue(v * 3);
      if (v < 20) {
        sparse.addValue(v);
      }
    }
    ByteArrayOutputStream three = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(three);
    sparse.writeTo(out);
    dense.writeTo(out);
    last.writeTo(out);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(three.toByteArray()));
    HyperLogLog.skip(in);
    HyperLogLog.skip(in);
    assertEquals(last.estimate(), HyperLogLog.readFrom(in).estimate());
    assertEquals(0, in.available());
    byte[] cut = Arrays.copyOf(bytes(dense), 100);
    assertThrows(IOException.class, () -> HyperLogLog.skip(new DataInputStream(new ByteArrayInputStream(cut))));
    assertThrows(IllegalArgumentException.class,
        () -> HyperLogLog.skip(new DataInputStream(new ByteArrayInputStream(new byte[] {7, 0, 0}))));

    assertThrows(IllegalArgumentException.class, () -> read(new byte[] {7, 0, 0}));
    byte[] bad = new byte[1 + HyperLogLog.SIZE];
    bad[0] = 1;
    bad[9] = 100;
    assertThrows(IllegalArgumentException.class, () -> read(bad));
    assertThrows(IOException.class, () -> read(new byte[] {1, 0, 0})); // cut short
  }

  @Test void stringHashesDependOnEveryByteAndTheLength() {
    byte[] x = "https://example.com/path?q=1".getBytes(StandardCharsets.UTF_8);
    long h = Hashing.bytes(x, 0, x.length);
    for (int i = 0; i < x.length; i++) {
      byte[] y = x.clone();
      y[i] ^= 1;
      assertNotEquals(h, Hashing.bytes(y, 0, y.length), "byte " + i);
    }
    assertNotEquals(Hashing.bytes(new byte[8], 0, 7), Hashing.bytes(new byte[8], 0, 8));
    HyperLogLog s = new HyperLogLog();
    for (int i = 0; i < 100_000; i++) {
      byte[] v = ("user-" + i).getBytes(StandardCharsets.UTF_8);
      s.add(Hashing.bytes(v, 0, v.length));
    }
    assertNear(100_000, s.estimate());
  }
}
