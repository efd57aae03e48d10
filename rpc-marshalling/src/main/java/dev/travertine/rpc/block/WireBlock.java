package dev.travertine.rpc.block;

import dev.travertine.vector.DataType;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * A block as it travels: column names and types, dense vectors of {@code rows} rows, and the
 * producer's sequence number within its stream.
 */
public record WireBlock(long sequence, List<String> names, List<DataType> types, ColumnVector[] columns, int rows) {
  public WireBlock {
    names = List.copyOf(names);
    types = List.copyOf(types);
    if (names.size() != types.size() || columns.length != types.size()) {
      throw new IllegalArgumentException(names.size() + " names, " + types.size() + " types, "
          + columns.length + " columns");
    }
  }
}
