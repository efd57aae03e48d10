package dev.travertine.mergetree;

import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/** Helpers for engine tests: a database whose background work runs only when the test asks. */
final class EngineTestSupport {
  private EngineTestSupport() {}

  static EngineContext manualContext() {
    return new EngineContext(Clock.systemUTC(), Executors.newSingleThreadScheduledExecutor(),
        Executors.newCachedThreadPool(), new EngineEvents(), false);
  }

  /**
   * A table {@code (k INTEGER, seq BIGINT NOT NULL, s VARCHAR) ORDER BY k} with 1024-row granules
   * whose every insert becomes a part (no buffer).
   */
  static TableDefinition keyedTable(String name) {
    TableSchema schema = new TableSchema(List.of(
        new Column("k", DataType.of(TypeKind.INTEGER), true),
        new Column("seq", DataType.of(TypeKind.BIGINT), false),
        new Column("s", DataType.varchar(-1), true)));
    return new TableDefinition(name, schema, List.of("k"), null, List.of(),
        Map.of("index_granularity", "1024", "min_insert_rows_for_direct_part", "1"), List.of());
  }

  /** Reads all rows (requested columns) of a table. */
  static List<Object[]> scan(MergeTreeTable t, Predicate filter, boolean ordered, int threads) throws IOException {
    int n = t.definition().schema().size();
    int[] cols = new int[n];
    for (int i = 0; i < n; i++) {
      cols[i] = i;
    }
    List<Object[]> out = new ArrayList<>();
    Predicate bound = filter == null ? null : filter.bind(t.definition().schema());
    try (TableScanner s = TableScanner.open(t.snapshot(),
        new ScanRequest(cols, bound, -1, ordered, threads, 1024, true), t.context())) {
      Batch b;
      while ((b = s.next()) != null) {
        for (int k = 0; k < b.size(); k++) {
          Object[] row = new Object[n];
          for (int c = 0; c < n; c++) {
            row[c] = Vectors.get(b.cols()[c], t.definition().schema().column(c).type().kind(), b.sel()[k]);
          }
          out.add(row);
        }
      }
    }
    return out;
  }
}
