package dev.travertine.mergetree;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.block.KeySort;
import dev.travertine.mergetree.part.OrcSupport;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.part.StringCardinality;
import dev.travertine.mergetree.part.ValueCodec;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.PartitionExpression;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.mergetree.settings.TableSettings;
import dev.travertine.vector.TypeKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's part writing: rows split by partition and sorted by the key into new part files
 * (inserts and buffer flushes), and the one routine that writes a part file and its metadata for
 * inserts, merges and mutations alike. Parts written here are not committed; the caller commits
 * them or {@link #discard}s them. The table's definition, block numbers and storage stay the
 * table's; this class reaches them as a package neighbour.
 */
final class TablePartWriter {
  private static final Logger LOG = LoggerFactory.getLogger(TablePartWriter.class);

  private final MergeTreeTable t;

  TablePartWriter(MergeTreeTable table) {
    this.t = table;
  }

  /** Writes rows as parts (not yet committed): split by partition, each sorted by the key. */
  List<PartRef> writeParts(List<Block> blocks, int level) throws IOException {
    Block all = blocks.size() == 1 ? blocks.get(0) : concat(blocks);
    if (all.rows() == 0) {
      return List.of();
    }
    TableDefinition def = t.definition();
    checkSchema(all);
    long block;
    synchronized (t.lock) {
      block = t.nextBlock++;
    }
    Map<String, int[]> byPartition = partition(def, all);
    List<PartRef> out = new ArrayList<>();
    try {
      for (Map.Entry<String, int[]> e : byPartition.entrySet()) {
        int[] rows = e.getValue();
        sortByKey(def, all, rows);
        String name = PartInfo.partName(e.getKey(), block, block, level, 0);
        out.add(writePart(def, name, e.getKey(), block, block, level, 0, rows.length,
            StringCardinality.directColumns(def.schema(), all, rows), w -> w.append(all, rows, 0, rows.length)));
      }
    } catch (IOException | RuntimeException ex) {
      discard(out);
      throw ex;
    }
    return out;
  }

  void checkSchema(Block b) {
    if (!b.schema().equals(t.definition().schema())) {
      throw new IllegalStateException("Table " + t.definition().name() + " was altered while this INSERT ran;"
          + " run it again");
    }
  }

  /** Source of a part's rows, in order. */
  interface RowSource {
    void writeTo(PartWriter w) throws IOException;
  }

  /** Writes one part file of about {@code expectedRows} rows (which sizes its compression buffers) and builds its metadata. */
  PartRef writePart(TableDefinition def, String name, String partitionId, long minBlock, long maxBlock,
      int level, long dataVersion, long expectedRows, RowSource rows) throws IOException {
    return writePart(def, name, partitionId, minBlock, maxBlock, level, dataVersion, expectedRows, Set.of(), rows);
  }

  /** Like the above, writing the string columns {@code directStrings} (file names) without a dictionary. */
  PartRef writePart(TableDefinition def, String name, String partitionId, long minBlock, long maxBlock,
      int level, long dataVersion, long expectedRows, Set<String> directStrings, RowSource rows) throws IOException {
    return writePart(def, name, partitionId, minBlock, maxBlock, level, dataVersion, expectedRows, directStrings,
        rows, false);
  }

  /**
   * Like the above; a background write ({@code background}: a merge or a mutation) gives up at its
   * next block once the database closes, leaving no file.
   */
  PartRef writePart(TableDefinition def, String name, String partitionId, long minBlock, long maxBlock,
      int level, long dataVersion, long expectedRows, Set<String> directStrings, RowSource rows,
      boolean background) throws IOException {
    Set<String> direct = new HashSet<>();
    for (var c : def.schema().columns()) { // a column dropped or retyped since its source part was written is not
      if (c.type().kind().isString() && directStrings.contains(c.storage())) {
        direct.add(c.storage());
      }
    }
    TableSettings ts = def.tableSettings();
    int writtenFormat = OrcTypes.CURRENT_FORMAT;
    PartInfo tmpInfo = new PartInfo(name, partitionId, minBlock, maxBlock, level, dataVersion, 0, 0, "", 0, 0, null,
        null, null, writtenFormat);
    PartWriter.Written w;
    try (PartWriter writer = new PartWriter(t.io, tmpInfo.path(), def.schema(), ts.indexGranularity(),
        OrcSupport.compression(ts.get(Settings.COMPRESSION)), OrcSupport.compressionBufferSize(expectedRows),
        direct, writtenFormat)) {
      if (background) {
        writer.cancelWhen(() -> t.backgroundCancelled);
      }
      rows.writeTo(writer);
      w = writer.finish();
    }
    Map<String, List<String>> stats = new LinkedHashMap<>();
    TableSchema schema = def.schema();
    for (int c = 0; c < schema.size(); c++) {
      Object[] sum = w.index().columnSummary(c);
      stats.put(schema.column(c).storage(),
          Arrays.asList(ValueCodec.encode(sum[0]), ValueCodec.encode(sum[1]), sum[2].toString()));
    }
    PartInfo info = new PartInfo(name, partitionId, minBlock, maxBlock, level, dataVersion, w.rows(), w.bytes(),
        w.checksum(), t.ctx.clock().millis(), w.index().granules(), stats, null, schema.orcSchema().toString(), writtenFormat);
    t.ctx.events().add(EngineEvents.PARTS_WRITTEN, 1);
    t.ctx.events().add(EngineEvents.BYTES_WRITTEN, w.bytes());
    return new PartRef(info, t.io, t.fs, w.index(), t.oldParts);
  }

  void discard(List<PartRef> parts) {
    for (PartRef p : parts) {
      try {
        t.io.delete(p.info().path());
      } catch (IOException e) {
        LOG.warn("Cannot delete uncommitted part {}: {}", p.name(), e.toString());
      }
    }
  }

  private static Block concat(List<Block> blocks) {
    Block all = new Block(blocks.get(0).schema());
    blocks.forEach(all::appendAll);
    return all;
  }

  private static Map<String, int[]> partition(TableDefinition def, Block all) {
    PartitionExpression pe = def.partitionBy();
    if (pe == null) {
      int[] rows = new int[all.rows()];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = i;
      }
      return Map.of("all", rows);
    }
    int col = def.schema().require(pe.column());
    Column column = def.schema().column(col);
    String[] ids = new String[all.rows()];
    Map<String, Integer> counts = new TreeMap<>();
    Object prev = null;
    String prevId = null;
    for (int r = 0; r < ids.length; r++) {
      Object v = all.get(r, col);
      String pid = prevId != null && Objects.equals(v, prev) ? prevId : pe.partitionId(column.type(), v);
      ids[r] = pid;
      prev = v;
      prevId = pid;
      counts.merge(pid, 1, Integer::sum);
    }
    Map<String, int[]> out = new LinkedHashMap<>();
    Map<String, Integer> fill = new TreeMap<>();
    counts.forEach((k, n) -> {
      out.put(k, new int[n]);
      fill.put(k, 0);
    });
    for (int r = 0; r < ids.length; r++) {
      int k = fill.merge(ids[r], 1, Integer::sum) - 1;
      out.get(ids[r])[k] = r;
    }
    return out;
  }

  /** Stable sort of row numbers by the sort key (NULLS LAST). */
  private static void sortByKey(TableDefinition def, Block all, int[] rows) {
    int[] key = def.sortKeyIndexes();
    var kinds = Arrays.stream(key).mapToObj(k -> def.schema().column(k).type().kind()).toArray(
        TypeKind[]::new);
    KeySort.sort(all, key, kinds, rows);
  }
}
