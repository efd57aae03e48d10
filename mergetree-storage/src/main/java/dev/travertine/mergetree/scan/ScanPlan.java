package dev.travertine.mergetree.scan;

import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.part.ColumnMapping;
import dev.travertine.mergetree.part.GranuleIndex;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.part.ValueCodec;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.StatsView;
import java.util.ArrayList;
import java.util.List;

/**
 * Index analysis of a scan: which parts survive partition pruning (part min/max) and which of
 * their granules survive granule pruning (the granule index). Shown by EXPLAIN as
 * {@code parts=[selected/total], granules=[selected/total]}.
 */
public final class ScanPlan {
  /** One part to read and its selected granules (null = all). */
  public record PartTask(PartRef part, boolean[] granules, int selectedGranules) {}

  private final List<PartTask> tasks;
  private final int totalParts;
  private final long totalGranules;
  private final long selectedGranules;

  private ScanPlan(List<PartTask> tasks, int totalParts, long totalGranules, long selectedGranules) {
    this.tasks = tasks;
    this.totalParts = totalParts;
    this.totalGranules = totalGranules;
    this.selectedGranules = selectedGranules;
  }

  public static ScanPlan plan(TableSnapshot snapshot, Predicate filter, boolean usePruning) {
    TableSchema schema = snapshot.definition().schema();
    List<PartTask> tasks = new ArrayList<>();
    long total = 0;
    long selected = 0;
    for (PartRef p : snapshot.parts()) {
      PartInfo info = p.info();
      total += info.granules();
      // A pending UPDATE may change values the statistics describe: such parts are read whole.
      boolean prune = filter != null && usePruning && !(snapshot.mayHavePendingMutations()
          && snapshot.pendingFor(p).stream().anyMatch(m -> !m.isDelete()));
      if (prune && !filter.mayMatch(partStats(schema, p))) {
        continue;
      }
      if (!prune) {
        tasks.add(new PartTask(p, null, info.granules()));
        selected += info.granules();
        continue;
      }
      GranuleIndex gi = p.index();
      ColumnMapping mapping = p.mapping(schema);
      boolean[] sel = new boolean[gi.granules()];
      int n = 0;
      for (int g = 0; g < sel.length; g++) {
        sel[g] = filter.mayMatch(mapping.remap(gi.granule(g)));
        if (sel[g]) {
          n++;
        }
      }
      if (n > 0) {
        tasks.add(new PartTask(p, n == sel.length ? null : sel, n));
        selected += n;
      }
    }
    return new ScanPlan(List.copyOf(tasks), snapshot.parts().size(), total, selected);
  }

  /**
   * Part-level statistics from the part's metadata record (no IO for parts that record their
   * file schema), seen in the table's current schema through the part's column mapping (as
   * granule statistics are): columns added since read as their default, columns whose type
   * changed have no usable statistics.
   */
  public static StatsView partStats(TableSchema schema, PartRef part) {
    PartInfo info = part.info();
    ColumnMapping m = part.mapping(schema);
    StatsView byFileColumn = new StatsView() {
      private List<String> stats(int f) {
        return info.columnStats().get(m.fileColumnName(f));
      }

      private Object value(int f, int which) {
        List<String> s = stats(f);
        return s == null ? null : ValueCodec.decode(m.fileColumnKind(f), s.get(which));
      }

      @Override
      public Object min(int f) {
        return value(f, 0);
      }

      @Override
      public Object max(int f) {
        return value(f, 1);
      }

      @Override
      public boolean hasNull(int f) {
        List<String> s = stats(f);
        return s == null || Long.parseLong(s.get(2)) > 0;
      }

      @Override
      public boolean allNull(int f) {
        List<String> s = stats(f);
        return s != null && Long.parseLong(s.get(2)) == info.rows();
      }
    };
    return m.remap(byFileColumn);
  }

  public List<PartTask> tasks() {
    return tasks;
  }

  public int totalParts() {
    return totalParts;
  }

  public int selectedParts() {
    return tasks.size();
  }

  public long totalGranules() {
    return totalGranules;
  }

  public long selectedGranules() {
    return selectedGranules;
  }

  /** EXPLAIN's summary. */
  public String describe() {
    return "parts=[" + selectedParts() + "/" + totalParts + "], granules=[" + selectedGranules + "/"
        + totalGranules + "]";
  }
}
