package dev.travertine.exec.op;

import dev.travertine.vector.DataType;
import java.util.List;

/**
 * A vectorized plan over one table scan: the scan's fields (table columns, in order), then the
 * steps applied one after another. Each step's output field types are known ({@code types}),
 * which is what every operator needs to lay out and compare vectors.
 *
 * @param scanColumns table column of each scan field
 * @param steps operators in order of application
 * @param types the field types after the scan ({@code types.get(0)}) and after each step
 *     ({@code types.get(i + 1)} for {@code steps.get(i)})
 */
public record Fragment(int[] scanColumns, List<Step> steps, List<List<DataType>> types) {
  public Fragment {
    steps = List.copyOf(steps);
    types = List.copyOf(types);
    if (types.size() != steps.size() + 1) {
      throw new IllegalArgumentException("Need " + (steps.size() + 1) + " type lists, got " + types.size());
    }
  }

  /** The field types of the fragment's output. */
  public List<DataType> outputTypes() {
    return types.get(types.size() - 1);
  }
}
