package dev.travertine.mergetree.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** KeySort against a plain stable sort by {@link Vectors#compare} on every key. */
class KeySortTest {
  private static final TableSchema SCHEMA = new TableSchema(List.of(
      new Column("i", DataType.of(TypeKind.INTEGER), true),
      new Column("l", DataType.of(TypeKind.BIGINT), false),
      new Column("s", DataType.varchar(-1), true),
      new Column("ts", DataType.of(TypeKind.TIMESTAMP), false),
      new Column("d", DataType.of(TypeKind.DATE), false)));

  private static Block block(Random rnd, int n, boolean nulls, long spread) {
    Block b = new Block(SCHEMA);
    for (int r = 0; r < n; r++) {
      b.appendRow(new Object[] {nulls && rnd.nextInt(20) == 0 ? null : rnd.nextInt(7) - 3,
          rnd.nextInt(4) == 0 ? Long.MIN_VALUE + rnd.nextInt(3) : (rnd.nextLong() % spread),
          rnd.nextInt(10) == 0 ? null : "s" + rnd.nextInt(30), (long) rnd.nextInt(5) * 1000 - 2000,
          rnd.nextInt(40) - 20});
    }
    return b;
  }

  private static int[] reference(Block b, int[] key, TypeKind[] kinds, int[] rows) {
    int[] out = rows.clone();
    IntSort.sort(out, (x, y) -> {
      for (int i = 0; i < key.length; i++) {
        int c = Vectors.compare(b.vector(x, key[i]), Block.pos(x), b.vector(y, key[i]), Block.pos(y), kinds[i]);
        if (c != 0) {
          return c;
        }
      }
      return 0;
    });
    return out;
  }

  @Test void agreesWithTheComparatorSortOnEveryKeyShape() {
    Random rnd = new Random(3);
    int[][] keys = {{0}, {1}, {4, 3, 1}, {3, 4}, {4, 0, 2}, {2, 1}, {1, 4}, {4, 3}, {0, 1, 2, 3, 4}};
    for (int round = 0; round < 40; round++) {
      int n = 1 + rnd.nextInt(5000);
      Block b = block(rnd, n, round % 2 == 0, round % 3 == 0 ? Long.MAX_VALUE : 1000);
      int[] key = keys[round % keys.length];
      TypeKind[] kinds = new TypeKind[key.length];
      for (int i = 0; i < key.length; i++) {
        kinds[i] = SCHEMA.column(key[i]).type().kind();
      }
      int[] rows = new int[n];
      for (int i = 0; i < n; i++) {
        rows[i] = i;
      }
      if (round % 4 == 1) { // a partition's subset of the rows
        rows = java.util.Arrays.stream(rows).filter(r -> r % 3 != 0).toArray();
      }
      int[] expected = reference(b, key, kinds, rows);
      KeySort.sort(b, key, kinds, rows);
      assertArrayEquals(expected, rows, "round " + round);
    }
  }
}
