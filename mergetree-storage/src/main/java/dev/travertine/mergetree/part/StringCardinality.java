package dev.travertine.mergetree.part;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;

/**
 * Which string columns of a block to write without a dictionary: those whose distinct values
 * exceed {@link #DIRECT_RATIO} of the rows of an evenly spaced sample of 65,536 rows. ORC would decide from the first granule of the sorted
 * rows, which says little about the rest (a granule of one sort-key value repeats its URLs), and
 * keeps a dictionary whose red-black tree costs more than everything else in writing the part.
 * Small blocks decide nothing (ORC's own check applies); merges keep their sources' choice.
 */
public final class StringCardinality {
  /** Distinct values per row above which a column is written directly. */
  static final double DIRECT_RATIO = 0.3;

  /** Blocks smaller than this decide nothing: their ratio says little about the table's. */
  static final int MIN_ROWS = 1 << 16;

  /** Rows whose values are counted. */
  static final int SAMPLE = 1 << 16;

  private StringCardinality() {}

  /** File names of the string columns of {@code rows} of {@code block} to write directly. */
  public static Set<String> directColumns(TableSchema schema, Block block, int[] rows) {
    Set<String> out = new HashSet<>();
    if (rows.length < MIN_ROWS) {
      return out;
    }
    // An evenly spaced sample, in block order: a sample has relatively more distinct values than
    // the whole, so a column direct by its sample is at least as distinct as the ratio says.
    int step = Math.max(1, rows.length / SAMPLE);
    int sampled = (rows.length + step - 1) / step;
    int[] sample = new int[sampled];
    for (int i = 0; i < sampled; i++) {
      sample[i] = rows[i * step];
    }
    java.util.Arrays.sort(sample);
    long limit = (long) (DIRECT_RATIO * sampled);
    for (int c = 0; c < schema.size(); c++) {
      Column col = schema.column(c);
      if (!col.type().kind().isString()) {
        continue;
      }
      LongOpenHashSet seen = new LongOpenHashSet();
      for (int r : sample) {
        BytesColumnVector v = (BytesColumnVector) block.vector(r, c);
        int i = v.isRepeating ? 0 : Block.pos(r);
        if (!v.noNulls && v.isNull[i]) {
          continue;
        }
        seen.add(dev.travertine.vector.Hashing.bytes(v.vector[i], v.start[i], v.length[i]));
        if (seen.size() > limit) {
          out.add(col.storage());
          break;
        }
      }
    }
    return out;
  }
}
