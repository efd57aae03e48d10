package dev.travertine.exec.agg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** ByteKeyTable against a HashMap of the same keys: dense, stable ids; added(); stored bytes. */
class ByteKeyTableTest {

  /** A key as a map key. */
  private record Key(byte[] b) {
    @Override public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(b, k.b);
    }

    @Override public int hashCode() {
      return Arrays.hashCode(b);
    }
  }

  /** Adds keys (each from a random offset of a larger buffer) and checks every answer and the arena. */
  private static void check(List<byte[]> keys, Random rnd) {
    ByteKeyTable t = new ByteKeyTable();
    Map<Key, Integer> ref = new HashMap<>();
    List<byte[]> byId = new ArrayList<>();
    long lastBytes = t.bytes();
    for (byte[] k : keys) {
      int off = rnd.nextInt(5);
      byte[] buf = new byte[off + k.length + rnd.nextInt(5)];
      rnd.nextBytes(buf); // bytes around the key are not part of it
      System.arraycopy(k, 0, buf, off, k.length);
      Integer want = ref.get(new Key(k));
      int id = t.add(buf, off, k.length);
      if (want == null) {
        assertTrue(t.added(), "new key not reported added");
        assertEquals(byId.size(), id, "ids are dense, in insertion order");
        ref.put(new Key(k), id);
        byId.add(k);
      } else {
        assertFalse(t.added(), "known key reported added");
        assertEquals((int) want, id, "id of a known key changed");
      }
      assertEquals(byId.size(), t.size());
      assertTrue(t.bytes() >= lastBytes, "bytes() shrank");
      lastBytes = t.bytes();
    }
    for (int id = 0; id < byId.size(); id++) {
      byte[] k = byId.get(id);
      assertEquals(k.length, t.length(id));
      assertArrayEquals(k, Arrays.copyOfRange(t.arena(), t.start(id), t.start(id) + t.length(id)), "key " + id);
    }
    // and again, all known: same ids, nothing added
    for (int id = 0; id < byId.size(); id++) {
      byte[] k = byId.get(id);
      assertEquals(id, t.add(k, 0, k.length));
      assertFalse(t.added());
    }
    assertTrue(t.bytes() >= t.arena().length);
  }

  @Test void randomKeysWithRepeats() {
    Random rnd = new Random(1);
    List<byte[]> distinct = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      byte[] k = new byte[rnd.nextInt(30)];
      rnd.nextBytes(k);
      distinct.add(k);
    }
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 40_000; i++) {
      keys.add(distinct.get(rnd.nextInt(distinct.size())));
    }
    check(keys, rnd);
  }

  @Test void collidingPrefixesAndLengths() {
    Random rnd = new Random(2);
    List<byte[]> keys = new ArrayList<>();
    // the empty key, zero bytes of every length, one key a prefix of the next
    keys.add(new byte[0]);
    for (int n = 1; n <= 40; n++) {
      keys.add(new byte[n]);
      keys.add("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".substring(0, n).getBytes(StandardCharsets.US_ASCII));
    }
    // long shared prefixes (several whole 8-byte words) that differ in one byte anywhere after them
    String prefix = "a-long-common-prefix-of-several-words:";
    for (int i = 0; i < 20_000; i++) {
      byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
      byte[] k = Arrays.copyOf(p, p.length + 1 + (i % 11));
      k[p.length + (i % (1 + i % 11))] = (byte) (i >>> 3);
      k[k.length - 1] ^= (byte) i;
      keys.add(k);
    }
    // keys that differ only in the sign bit of one byte (hash folds bytes signed)
    for (int i = 0; i < 256; i++) {
      keys.add(new byte[] {1, 2, 3, (byte) i});
      keys.add(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, (byte) i, 0});
    }
    List<byte[]> all = new ArrayList<>(keys);
    for (int i = 0; i < 20_000; i++) {
      all.add(keys.get(rnd.nextInt(keys.size())));
    }
    check(all, rnd);
  }

  @Test void fullHashCollisions() {
    // 32-bit hash collisions: found by the birthday bound among 300 k keys; they must stay apart
    Map<Integer, byte[]> byHash = new HashMap<>();
    List<byte[]> keys = new ArrayList<>();
    int collisions = 0;
    for (int i = 0; i < 300_000; i++) {
      byte[] k = ("k" + i).getBytes(StandardCharsets.US_ASCII);
      byte[] other = byHash.putIfAbsent(ByteKeyTable.hash(k, 0, k.length), k);
      if (other != null) {
        keys.add(other);
        keys.add(k);
        collisions++;
      }
    }
    assertTrue(collisions > 0, "no 32-bit collision among 300 k keys");
    byHash.values().stream().limit(20_000).forEach(keys::add);
    List<byte[]> all = new ArrayList<>(keys);
    all.addAll(keys);
    check(all, new Random(3));
  }

  @Test void manyKeysGrowTheTable() {
    Random rnd = new Random(4);
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 300_000; i++) {
      keys.add(("group-key-" + (i * 7919L % 300_000)).getBytes(StandardCharsets.US_ASCII));
    }
    ByteKeyTable t = new ByteKeyTable();
    long small = t.bytes();
    for (int i = 0; i < keys.size(); i++) {
      byte[] k = keys.get(i);
      assertEquals(i, t.add(k, 0, k.length));
      assertTrue(t.added());
    }
    assertTrue(t.bytes() > small + 300_000L * 16, "bytes() " + t.bytes());
    check(keys.subList(0, 100_000), rnd);
    for (int i = keys.size() - 1; i >= 0; i--) {
      byte[] k = keys.get(i);
      assertEquals(i, t.add(k, 0, k.length));
    }
    assertEquals(300_000, t.size());
  }

  @Test void hashUsesOnlyTheKeyBytes() {
    byte[] a = {9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9};
    byte[] b = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertEquals(ByteKeyTable.hash(b, 0, b.length), ByteKeyTable.hash(a, 2, 10));
  }
}
