package dev.travertine.exec.agg;

import dev.travertine.vector.DataType;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * The groups of a hash aggregation: maps each row's key to a dense group id. No key: {@link
 * NoKeys}; one long-backed key: {@link LongKeys} (a primitive map); one string: {@link
 * StringKeys} (its bytes); two to eight long-backed or string keys: {@link TupleKeys} (flat
 * columns of longs and string ids); anything else (doubles, decimals, timestamps, more than eight
 * keys): {@link ByteKeys} (serialized keys). Not thread-safe: each worker has its own, merged at
 * the end.
 */
public abstract sealed class GroupTable permits NoKeys, LongKeys, StringKeys, TupleKeys, ByteKeys {

  /** The table for grouping by columns of these types. */
  public static GroupTable create(List<DataType> keyTypes) {
    if (keyTypes.isEmpty()) {
      return new NoKeys();
    }
    if (keyTypes.size() == 1 && keyTypes.get(0).kind().isLongBacked()) {
      return new LongKeys(keyTypes.get(0));
    }
    if (keyTypes.size() == 1 && keyTypes.get(0).kind().isString()) {
      return new StringKeys(keyTypes.get(0));
    }
    if (keyTypes.size() >= 2 && keyTypes.size() <= 8 && TupleKeys.supports(keyTypes)) {
      return new TupleKeys(keyTypes);
    }
    return new ByteKeys(keyTypes);
  }

  /** Number of groups. */
  public abstract int size();

  /**
   * Whether {@link #groupIds} takes string keys as {@link dev.travertine.vector.DictionaryVector}s
   * (looking each entry up once); otherwise they come in Hive's form.
   */
  boolean takesDictionaries() {
    return false;
  }

  /** Sets {@code gid[k]} to the group of row {@code sel[k]}, for k < n, adding new groups. */
  public abstract void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid);

  /**
   * Adds the keys of {@code other}'s groups {@code src[k]}, k < n ({@code other} groups by the same
   * key types), and returns their ids in this table.
   */
  public abstract int[] mergeFrom(GroupTable other, int[] src, int n);

  /**
   * A hash of group g's key that depends on the key's value alone, so equal keys hash alike in
   * every table of the same key types (what partitions groups for a parallel merge). Its high
   * bits are as good as its low ones.
   */
  public abstract int hash(int g);

  /**
   * Puts group {@code order[k]} at k, for every group k: a table put aside is ordered by hash
   * partition so that a merge reads each partition in one run. The table is only merged from
   * afterwards ({@link #mergeFrom}, {@link #keys}, {@link #hash}); {@link #groupIds} is an error.
   */
  public abstract void reorder(int[] order);

  static int moved(int group, int[] order, int n) {
    for (int k = 0; group >= 0 && k < n; k++) {
      if (order[k] == group) {
        return k;
      }
    }
    return -1;
  }

  /** Makes room for {@code groups} groups in all, when the table is still empty (a hint). */
  public void reserve(int groups) {}

  static int mix(long x) {
    return (int) dev.travertine.vector.Hashing.mix64(x);
  }

  /** The hash of a NULL key. */
  static final int NULL_HASH = 0x2545F491;

  /** Vectors of the key values of groups {@code from .. from + count)}, one per key column. */
  public abstract ColumnVector[] keys(int from, int count);

  /** Bytes held (for memory accounting). */
  public abstract long bytes();
}
