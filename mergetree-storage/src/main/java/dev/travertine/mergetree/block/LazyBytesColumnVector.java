package dev.travertine.mergetree.block;

import dev.travertine.vector.Vectors;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;

/**
 * A string vector whose shared buffer (at least 16 KiB) is allocated on the first value copied into
 * it ({@code setVal}, {@code setConcat}, {@code ensureValPreallocated}), not when it is made or
 * reset. Vectors filled by reference ({@code setRef}: the text parser's arena, a scatter, a reader)
 * never need one; a load held 16 KiB per string column per 1024-row batch of a block that way,
 * unused, about a third of the block.
 */
public final class LazyBytesColumnVector extends BytesColumnVector {
  private boolean buffered;

  public LazyBytesColumnVector(int size) {
    super(size);
  }

  @Override
  public void initBuffer(int estimatedValueSize) {
    if (buffered) {
      super.initBuffer(estimatedValueSize);
    }
  }

  @Override
  public void ensureValPreallocated(int length) {
    buffer();
    super.ensureValPreallocated(length);
  }

  /** The copy shares this vector's buffer, so both have one from here on. */
  @Override
  public void shallowCopyTo(org.apache.hadoop.hive.ql.exec.vector.ColumnVector other) {
    buffer();
    super.shallowCopyTo(other);
    if (other instanceof LazyBytesColumnVector o) {
      o.buffered = true;
    }
  }

  private void buffer() {
    if (!buffered) {
      buffered = true;
      super.initBuffer(0);
    }
  }
}
