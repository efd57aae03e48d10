package dev.travertine.mergetree.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.vector.Vectors;
import java.nio.charset.StandardCharsets;
import org.apache.orc.TypeDescription;
import org.junit.jupiter.api.Test;

class LazyBytesColumnVectorTest {
  private static String at(LazyBytesColumnVector v, int row) {
    return new String(v.vector[row], v.start[row], v.length[row], StandardCharsets.UTF_8);
  }

  @Test
  void referencedValuesNeedNoBufferAndCopiedOnesGetOne() {
    var batch = OrcBatches.newBatch(TypeDescription.fromString("struct<a:bigint,s:string,c:char(3)>"), 8);
    assertEquals(0, batch.size);
    assertEquals(8, batch.getMaxSize());
    var v = assertInstanceOf(LazyBytesColumnVector.class, batch.cols[1]);
    assertInstanceOf(LazyBytesColumnVector.class, batch.cols[2]);
    byte[] shared = "xhello".getBytes(StandardCharsets.UTF_8);
    v.setRef(0, shared, 1, 5);
    batch.reset();
    v.setRef(0, shared, 1, 5);
    assertEquals(0, v.bufferSize(), "setRef and reset allocate no buffer");
    assertEquals("hello", at(v, 0));

    v.setVal(1, "copied".getBytes(StandardCharsets.UTF_8));
    assertTrue(v.bufferSize() >= 6);
    byte[] big = new byte[40_000]; // more than the first buffer holds
    big[39_999] = 'z';
    v.setVal(2, big);
    assertEquals("copied", at(v, 1));
    assertEquals('z', v.vector[2][v.start[2] + 39_999]);

    OrcBatches.resetBatch(batch);
    v.setVal(0, "again".getBytes(StandardCharsets.UTF_8));
    assertEquals("again", at(v, 0));
  }

  @Test
  void aShallowCopyOfAnUnbufferedVectorCanTakeCopiedValues() {
    var v = new LazyBytesColumnVector(4);
    var copy = new org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector(4);
    v.shallowCopyTo(copy);
    copy.setVal(0, "one".getBytes(StandardCharsets.UTF_8));
    assertEquals("one", new String(copy.vector[0], copy.start[0], copy.length[0], StandardCharsets.UTF_8));
  }
}
