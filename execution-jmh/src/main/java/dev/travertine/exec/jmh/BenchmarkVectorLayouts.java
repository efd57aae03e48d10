package dev.travertine.exec.jmh;

import dev.travertine.vector.Int16Vector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Our own vectors against Hive's and Apache Arrow Java's, on the kernels issue 35 names: a filter
 * into a selection ({@code x <> c} on SMALLINT, 2 % of rows pass, as ClickBench's {@code
 * AdvEngineID <> 0}), a sum (SMALLINT), a hash probe (INTEGER keys into a fastutil table of 64 Ki
 * keys, half of them hit) and a string equality with a constant. The same loops over each layout:
 *
 * <ul>
 *   <li>{@code hive}: {@code LongColumnVector} (8 bytes a value), {@code BytesColumnVector}
 *       (a {@code byte[]} reference, start and length per row);
 *   <li>{@code own}: {@link Int16Vector}/{@link Int32Vector} (2 and 4 bytes), strings as one
 *       {@code byte[]} and {@code int[]} offsets;
 *   <li>{@code arrow}: {@code SmallIntVector}/{@code IntVector}/{@code VarCharVector} read with
 *       Arrow's fastest settings (no bounds checks, no null check on get).
 * </ul>
 *
 * Score: values per second. 4 Mi rows in batches of 4,096 (max_block_size), every row selected.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
    "-Darrow.enable_unsafe_memory_access=true", "-Darrow.enable_null_check_for_get=false"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkVectorLayouts {
  static final int BATCH = 4096;
  static final int ROWS = 4 * 1024 * 1024;
  static final int BATCHES = ROWS / BATCH;

  @Param({"hive", "own", "arrow"})
  public String layout;

  private LongColumnVector[] hiveShorts;
  private LongColumnVector[] hiveInts;
  private BytesColumnVector[] hiveStrings;
  private Int16Vector[] ownShorts;
  private Int32Vector[] ownInts;
  private byte[][] ownStringBytes;
  private int[][] ownStringOffsets;
  private BufferAllocator allocator;
  private SmallIntVector[] arrowShorts;
  private IntVector[] arrowInts;
  private VarCharVector[] arrowStrings;
  private Long2IntOpenHashMap table;
  private final int[] sel = new int[BATCH];
  private final byte[] constant = "google.com".getBytes(StandardCharsets.UTF_8);

  @Setup(Level.Trial)
  public void setup() {
    SplittableRandom rnd = new SplittableRandom(35);
    String[] words = {"google.com", "yandex.ru", "example.org", "google.co", "travertine.dev", "", "a", "google.comx"};
    hiveShorts = new LongColumnVector[BATCHES];
    hiveInts = new LongColumnVector[BATCHES];
    hiveStrings = new BytesColumnVector[BATCHES];
    ownShorts = new Int16Vector[BATCHES];
    ownInts = new Int32Vector[BATCHES];
    ownStringBytes = new byte[BATCHES][];
    ownStringOffsets = new int[BATCHES][];
    allocator = new RootAllocator();
    arrowShorts = new SmallIntVector[BATCHES];
    arrowInts = new IntVector[BATCHES];
    arrowStrings = new VarCharVector[BATCHES];
    table = new Long2IntOpenHashMap();
    for (int k = 0; k < 65536; k++) {
      table.put(2L * k, k); // even keys below 131,072; the probe's keys are below 131,072 too
    }
    for (int b = 0; b < BATCHES; b++) {
      LongColumnVector s = new LongColumnVector(BATCH);
      LongColumnVector i = new LongColumnVector(BATCH);
      byte[][] str = new byte[BATCH][];
      int total = 0;
      for (int r = 0; r < BATCH; r++) {
        s.vector[r] = rnd.nextInt(50) == 0 ? 1 + rnd.nextInt(30) : 0;
        i.vector[r] = rnd.nextInt(131072);
        str[r] = words[rnd.nextInt(words.length)].getBytes(StandardCharsets.UTF_8);
        total += str[r].length;
      }
      hiveShorts[b] = s;
      hiveInts[b] = i;
      ownShorts[b] = (Int16Vector) IntegerVector.narrow(s, TypeKind.SMALLINT, BATCH);
      ownInts[b] = (Int32Vector) IntegerVector.narrow(i, TypeKind.INTEGER, BATCH);
      byte[] buf = new byte[total];
      int[] off = new int[BATCH + 1];
      BytesColumnVector h = new BytesColumnVector(BATCH);
      VarCharVector a = new VarCharVector("s", allocator);
      a.allocateNew(total, BATCH);
      SmallIntVector as = new SmallIntVector("si", allocator);
      as.allocateNew(BATCH);
      IntVector ai = new IntVector("i", allocator);
      ai.allocateNew(BATCH);
      for (int r = 0; r < BATCH; r++) {
        System.arraycopy(str[r], 0, buf, off[r], str[r].length);
        off[r + 1] = off[r] + str[r].length;
        h.setRef(r, buf, off[r], str[r].length);
        a.set(r, str[r]);
        as.set(r, (short) s.vector[r]);
        ai.set(r, (int) i.vector[r]);
      }
      a.setValueCount(BATCH);
      as.setValueCount(BATCH);
      ai.setValueCount(BATCH);
      hiveStrings[b] = h;
      ownStringBytes[b] = buf;
      ownStringOffsets[b] = off;
      arrowStrings[b] = a;
      arrowShorts[b] = as;
      arrowInts[b] = ai;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    for (int b = 0; b < BATCHES; b++) {
      arrowStrings[b].close();
      arrowShorts[b].close();
      arrowInts[b].close();
    }
    allocator.close();
  }

  /** {@code x <> 0} into a selection vector (branching: 2 % pass). */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int filterNotEqual() {
    int kept = 0;
    for (int b = 0; b < BATCHES; b++) {
      int c = 0;
      switch (layout) {
        case "hive" -> {
          long[] x = hiveShorts[b].vector;
          for (int i = 0; i < BATCH; i++) {
            if (x[i] != 0) {
              sel[c++] = i;
            }
          }
        }
        case "own" -> {
          short[] x = ownShorts[b].values;
          for (int i = 0; i < BATCH; i++) {
            if (x[i] != 0) {
              sel[c++] = i;
            }
          }
        }
        default -> {
          SmallIntVector x = arrowShorts[b];
          for (int i = 0; i < BATCH; i++) {
            if (x.get(i) != 0) {
              sel[c++] = i;
            }
          }
        }
      }
      kept += c;
    }
    return kept;
  }

  /** SUM of a SMALLINT column. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long sum() {
    long s = 0;
    for (int b = 0; b < BATCHES; b++) {
      switch (layout) {
        case "hive" -> {
          long[] x = hiveShorts[b].vector;
          for (int i = 0; i < BATCH; i++) {
            s += x[i];
          }
        }
        case "own" -> {
          short[] x = ownShorts[b].values;
          for (int i = 0; i < BATCH; i++) {
            s += x[i];
          }
        }
        default -> {
          ArrowBuf x = arrowShorts[b].getDataBuffer();
          for (int i = 0; i < BATCH; i++) {
            s += x.getShort((long) i * 2);
          }
        }
      }
    }
    return s;
  }

  /** INTEGER keys looked up in a hash table (a join probe's or a GROUP BY's lookup). */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long hashProbe() {
    long found = 0;
    Long2IntOpenHashMap t = table;
    for (int b = 0; b < BATCHES; b++) {
      switch (layout) {
        case "hive" -> {
          long[] x = hiveInts[b].vector;
          for (int i = 0; i < BATCH; i++) {
            found += t.get(x[i]);
          }
        }
        case "own" -> {
          int[] x = ownInts[b].values;
          for (int i = 0; i < BATCH; i++) {
            found += t.get(x[i]);
          }
        }
        default -> {
          IntVector x = arrowInts[b];
          for (int i = 0; i < BATCH; i++) {
            found += t.get(x.get(i));
          }
        }
      }
    }
    return found;
  }

  /** {@code s = 'google.com'} into a selection vector (1 row in 8 passes). */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int stringEquals(Blackhole bh) {
    int kept = 0;
    byte[] k = constant;
    int kl = k.length;
    for (int b = 0; b < BATCHES; b++) {
      int c = 0;
      switch (layout) {
        case "hive" -> {
          BytesColumnVector x = hiveStrings[b];
          for (int i = 0; i < BATCH; i++) {
            int st = x.start[i];
            if (x.length[i] == kl && Arrays.equals(x.vector[i], st, st + kl, k, 0, kl)) {
              sel[c++] = i;
            }
          }
        }
        case "own" -> {
          byte[] buf = ownStringBytes[b];
          int[] off = ownStringOffsets[b];
          for (int i = 0; i < BATCH; i++) {
            int st = off[i];
            if (off[i + 1] - st == kl && Arrays.equals(buf, st, st + kl, k, 0, kl)) {
              sel[c++] = i;
            }
          }
        }
        default -> {
          VarCharVector x = arrowStrings[b];
          ArrowBuf off = x.getOffsetBuffer();
          ArrowBuf data = x.getDataBuffer();
          for (int i = 0; i < BATCH; i++) {
            int st = off.getInt((long) i * 4);
            int len = off.getInt((long) (i + 1) * 4) - st;
            if (len == kl && arrowEquals(data, st, k)) {
              sel[c++] = i;
            }
          }
        }
      }
      kept += c;
    }
    bh.consume(sel);
    return kept;
  }

  private static boolean arrowEquals(ArrowBuf data, long start, byte[] k) {
    for (int j = 0; j < k.length; j++) {
      if (data.getByte(start + j) != k[j]) {
        return false;
      }
    }
    return true;
  }
}
