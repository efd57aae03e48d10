package dev.travertine.mergetree.mutation;

import dev.travertine.mergetree.part.GranuleIndex;
import dev.travertine.mergetree.part.PartReader;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.scan.ScanPlan;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.vector.Predicate;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * What the mutation worker does to one part, apart from choosing it and committing: whether any
 * pending mutation can match its rows (part and granule statistics; if none can, the part only
 * gets a new data version), and the rewrite of its rows with the mutations applied.
 */
public final class PartRewriter {
  private PartRewriter() {}

  /** Whether one of {@code mutations} may match rows of {@code part}. */
  public static boolean touches(TableDefinition def, PartRef part, List<CompiledMutation> mutations) {
    for (CompiledMutation m : mutations) {
      if (mayMatch(def, part, m)) {
        return true;
      }
    }
    return false;
  }

  private static boolean mayMatch(TableDefinition def, PartRef part, CompiledMutation m) {
    Predicate p = m.pruning();
    if (p == null) {
      return true;
    }
    if (!p.mayMatch(ScanPlan.partStats(def.schema(), part))) {
      return false;
    }
    GranuleIndex gi = part.index();
    var mapping = part.mapping(def.schema());
    for (int g = 0; g < gi.granules(); g++) {
      if (p.mayMatch(mapping.remap(gi.granule(g)))) {
        return true;
      }
    }
    return false;
  }

  /** Writes the part's rows with {@code mutations} applied to {@code w}; returns how many rows it kept. */
  public static long rewriteRows(TableDefinition def, PartRef part, List<CompiledMutation> mutations, PartWriter w)
      throws IOException {
    long kept = 0;
    try (PartReader rows = PartReader.open(part, def.schema(), null, null, null, 0, -1)) {
      VectorizedRowBatch batch = def.schema().orcSchema().createRowBatch(1024);
      int[] sel = new int[1024];
      while (rows.next(batch)) {
        int n = Mutations.selectAll(mutations, batch.cols, batch.size, sel);
        for (int i = 0; i < n; i++) {
          w.append(batch.cols, sel[i]);
        }
        kept += n;
      }
    }
    return kept;
  }
}
