package dev.travertine.calcite.schema;

import dev.travertine.calcite.cluster.NodeExchange;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.check.DetachedParts;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.settings.Setting;
import dev.travertine.mergetree.settings.Settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The {@code system} schema: read-only tables that show what the engine is doing, with
 * ClickHouse's table and column names (tables, columns, parts, mutations, merges, settings, events).
 */
public final class SystemSchema extends AbstractSchema {
  public static final String NAME = "system";

  private final TravertineSession session;

  public SystemSchema(TravertineSession session) {
    this.session = session;
  }

  /** A column of a system table. */
  private record Col(String name, SqlTypeName type) {}

  private static Col c(String name, SqlTypeName type) {
    return new Col(name, type);
  }

  /** A table computed on every scan. */
  private static final class SystemTable extends AbstractTable implements ScannableTable {
    private final List<Col> cols;
    private final Supplier<List<Object[]>> rows;

    SystemTable(List<Col> cols, Supplier<List<Object[]>> rows) {
      this.cols = cols;
      this.rows = rows;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory tf) {
      RelDataTypeFactory.Builder b = tf.builder();
      for (Col col : cols) {
        RelDataType t = col.type() == SqlTypeName.TIMESTAMP ? tf.createSqlType(SqlTypeName.TIMESTAMP, 3)
            : tf.createSqlType(col.type());
        b.add(col.name(), tf.createTypeWithNullability(t, true));
      }
      return b.build();
    }

    @Override public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(rows.get());
    }

    /** JDBC metadata lists them as SYSTEM TABLE: tools that list (and drop) TABLEs leave them alone. */
    @Override public org.apache.calcite.schema.Schema.TableType getJdbcTableType() {
      return org.apache.calcite.schema.Schema.TableType.SYSTEM_TABLE;
    }
  }

  @Override protected Map<String, Table> getTableMap() {
    Map<String, Table> m = new LinkedHashMap<>();
    SqlTypeName vc = SqlTypeName.VARCHAR;
    SqlTypeName bi = SqlTypeName.BIGINT;
    m.put("tables", new SystemTable(List.of(c("database", vc), c("name", vc), c("engine", vc),
        c("partition_key", vc), c("sorting_key", vc), c("primary_key", vc), c("total_rows", bi),
        c("total_bytes", bi), c("parts", bi), c("settings", vc), c("data_path", vc),
        c("is_readonly", SqlTypeName.BOOLEAN)), this::tableRows));
    m.put("columns", new SystemTable(List.of(c("database", vc), c("table", vc), c("name", vc), c("position", bi),
        c("type", vc), c("is_nullable", SqlTypeName.BOOLEAN), c("default_expression", vc),
        c("is_in_sorting_key", SqlTypeName.BOOLEAN), c("is_in_partition_key", SqlTypeName.BOOLEAN),
        c("is_in_primary_key", SqlTypeName.BOOLEAN), c("primary_key_position", bi)),
        this::columnRows));
    m.put("parts", new SystemTable(List.of(c("database", vc), c("table", vc), c("partition", vc), c("name", vc),
        c("active", SqlTypeName.BOOLEAN), c("rows", bi), c("bytes_on_disk", bi), c("level", bi),
        c("min_block", bi), c("max_block", bi), c("marks", bi), c("modification_time", SqlTypeName.TIMESTAMP),
        c("checksum", vc), c("data_version", bi)), this::parts));
    m.put("detached_parts", new SystemTable(List.of(c("database", vc), c("table", vc), c("partition_id", vc),
        c("name", vc), c("reason", vc), c("message", vc), c("min_block_number", bi), c("max_block_number", bi),
        c("level", bi), c("rows", bi), c("bytes_on_disk", bi), c("path", vc),
        c("modification_time", SqlTypeName.TIMESTAMP)), this::detachedParts));
    m.put("mutations", new SystemTable(List.of(c("database", vc), c("table", vc), c("mutation_id", vc),
        c("command", vc), c("create_time", SqlTypeName.TIMESTAMP), c("block_number", bi), c("parts_to_do", bi),
        c("is_done", SqlTypeName.BOOLEAN), c("is_killed", SqlTypeName.BOOLEAN), c("latest_failed_part", vc),
        c("latest_fail_time", SqlTypeName.TIMESTAMP), c("latest_fail_reason", vc)), this::mutations));
    m.put("merges", new SystemTable(List.of(c("database", vc), c("table", vc), c("result_part_name", vc),
        c("source_part_names", vc), c("num_parts", bi), c("elapsed", SqlTypeName.DOUBLE), c("total_rows", bi)),
        this::merges));
    m.put("settings", new SystemTable(List.of(c("name", vc), c("value", vc), c("changed", SqlTypeName.BOOLEAN),
        c("default", vc), c("description", vc), c("type", vc)), this::settings));
    m.put("merge_tree_settings", new SystemTable(List.of(c("name", vc), c("value", vc), c("description", vc),
        c("type", vc)), this::mergeTreeSettings));
    m.put("events", new SystemTable(List.of(c("event", vc), c("value", bi)), this::events));
    m.put("query_log", new SystemTable(List.of(c("query_id", vc), c("user", vc), c("query", vc),
        c("query_start_time", SqlTypeName.TIMESTAMP), c("query_duration_ms", bi), c("read_rows", bi),
        c("read_bytes", bi), c("result_rows", bi), c("memory_usage", bi), c("exception", vc)), this::queryLog));
    m.put("processes", new SystemTable(List.of(c("query_id", vc), c("user", vc), c("query", vc),
        c("elapsed", SqlTypeName.DOUBLE), c("read_rows", bi), c("result_rows", bi), c("is_cancelled",
        SqlTypeName.BOOLEAN), c("connection_id", vc)), this::processes));
    m.put("metrics", new SystemTable(List.of(c("metric", vc), c("value", bi), c("description", vc)),
        this::metrics));
    m.put("clusters", new SystemTable(List.of(c("cluster", vc), c("replica_num", bi), c("host_name", vc),
        c("port", bi), c("is_local", SqlTypeName.BOOLEAN), c("state", vc), c("errors_count", bi),
        c("last_error", vc)), this::clusters));
    m.put("metric_log", new SystemTable(List.of(c("event_time", SqlTypeName.TIMESTAMP), c("kind", vc), c("name", vc),
        c("value", bi)), this::metricLog));
    m.put("views", new SystemTable(List.of(c("database", vc), c("name", vc), c("definition", vc)), this::views));
    return m;
  }

  private Database db() {
    return session.database();
  }

  private List<Object[]> tableRows() {
    List<Object[]> out = new ArrayList<>();
    for (MergeTreeTable t : db().tables()) {
      TableDefinition d = t.definition();
      long rows = t.bufferedRows();
      long bytes = 0;
      List<PartInfo> parts = t.activeParts();
      for (PartInfo p : parts) {
        rows += p.rows();
        bytes += p.bytesOnDisk();
      }
      out.add(new Object[] {TravertineSchema.NAME, d.name(), "MergeTree",
          d.partitionBy() == null ? "" : d.partitionBy().toString(), String.join(", ", d.orderBy()),
          String.join(", ", d.primaryKey().isEmpty() ? d.orderBy() : d.primaryKey()), rows, bytes,
          (long) parts.size(), d.sortedSettings().toString(), t.storageLocation(), t.readOnly()});
    }
    return out;
  }

  private List<Object[]> columnRows() {
    List<Object[]> out = new ArrayList<>();
    for (MergeTreeTable t : db().tables()) {
      TableDefinition d = t.definition();
      long pos = 1;
      for (Column col : d.schema().columns()) {
        // ClickHouse's rule: the primary key is the PRIMARY KEY clause, else the sorting key.
        List<String> primary = d.primaryKey().isEmpty() ? d.orderBy() : d.primaryKey();
        int inPrimary = primary.indexOf(col.name());
        out.add(new Object[] {TravertineSchema.NAME, d.name(), col.name(), pos++, col.type().toString(),
            col.nullable(), col.defaultSql(), d.orderBy().contains(col.name()),
            d.partitionBy() != null && d.partitionBy().column().equals(col.name()), inPrimary >= 0,
            inPrimary < 0 ? null : (long) inPrimary + 1});
      }
    }
    return out;
  }

  private List<Object[]> parts() {
    List<Object[]> out = new ArrayList<>();
    for (MergeTreeTable t : db().tables()) {
      for (PartInfo p : t.activeParts()) {
        out.add(new Object[] {TravertineSchema.NAME, t.definition().name(), p.partitionId(), p.name(), true,
            p.rows(), p.bytesOnDisk(), (long) p.level(), p.minBlock(), p.maxBlock(), (long) p.granules(),
            p.modificationTime(), p.checksum(), p.version()});
      }
    }
    return out;
  }

  private List<Object[]> detachedParts() {
    List<Object[]> out = new ArrayList<>();
    for (MergeTreeTable t : db().tables()) {
      List<DetachedParts.Detached> detached;
      try {
        detached = t.detachedParts();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("Cannot list the detached parts of table " + t.definition().name()
            + ": " + e.getMessage(), e);
      }
      for (DetachedParts.Detached d : detached) {
        PartInfo p = d.part();
        out.add(new Object[] {TravertineSchema.NAME, t.definition().name(), p.partitionId(), d.name(), d.reason(),
            d.message(), p.minBlock(), p.maxBlock(), (long) p.level(), p.rows(), p.bytesOnDisk(),
            d.hasFile() ? DetachedParts.DIR + "/" + d.name() + ".orc" : null, d.time()});
      }
    }
    return out;
  }

  private List<Object[]> mutations() {
    List<Object[]> out = new ArrayList<>();
    for (MergeTreeTable t : db().tables()) {
      for (MergeTreeTable.MutationStatus m : t.mutations()) {
        out.add(new Object[] {TravertineSchema.NAME, t.definition().name(), m.record().id(),
            m.record().command().text(), m.record().createTime(), m.record().block(), (long) m.partsToDo(),
            m.done(), m.record().killed(), m.failedPart(), m.failReason() == null ? null : m.failTime(),
            m.failReason()});
      }
    }
    return out;
  }

  private List<Object[]> merges() {
    List<Object[]> out = new ArrayList<>();
    long now = db().context().clock().millis();
    for (MergeTreeTable t : db().tables()) {
      for (MergeTreeTable.RunningMerge m : t.runningMerges()) {
        out.add(new Object[] {TravertineSchema.NAME, m.table(), m.resultPart(), String.join(", ", m.sourceParts()),
            (long) m.sourceParts().size(), (now - m.startMillis()) / 1000.0, m.totalRows()});
      }
    }
    return out;
  }

  private List<Object[]> settings() {
    List<Object[]> out = new ArrayList<>();
    for (Setting s : Settings.all()) {
      if (s.scope() == Setting.Scope.SESSION) {
        out.add(new Object[] {s.name(), session.settings().get(s), session.settings().isChanged(s),
            s.defaultValue(), s.description(), s.type().name()});
      }
    }
    return out;
  }

  private List<Object[]> mergeTreeSettings() {
    List<Object[]> out = new ArrayList<>();
    for (Setting s : Settings.all()) {
      if (s.scope() == Setting.Scope.TABLE) {
        out.add(new Object[] {s.name(), s.defaultValue(), s.description(), s.type().name()});
      }
    }
    return out;
  }

  private List<Object[]> clusters() {
    NodeExchange x = NodeExchange.of(db());
    return x == null ? List.of() : x.rows();
  }

  private List<Object[]> events() {
    List<Object[]> out = new ArrayList<>();
    db().eventCounts().forEach((k, v) -> out.add(new Object[] {k, v}));
    return out;
  }

  private List<Object[]> queryLog() {
    List<Object[]> out = new ArrayList<>();
    for (var e : db().queries().log()) {
      out.add(new Object[] {e.queryId(), e.user(), e.query(), e.startMillis(), e.durationMillis(), e.readRows(),
          e.readBytes(), e.resultRows(), e.memoryBytes() < 0 ? null : e.memoryBytes(), e.exception()});
    }
    return out;
  }

  private List<Object[]> processes() {
    List<Object[]> out = new ArrayList<>();
    long now = db().context().clock().millis();
    for (var q : db().queries().running()) {
      out.add(new Object[] {q.id(), q.user(), q.query(), (now - q.startMillis()) / 1000.0, q.readRows(),
          q.resultRows(), q.isCancelled(), q.connectionId()});
    }
    return out;
  }

  private List<Object[]> metrics() {
    List<Object[]> out = new ArrayList<>();
    db().currentMetrics().forEach((k, v) -> out.add(new Object[] {k, v, Database.METRIC_DESCRIPTIONS.get(k)}));
    return out;
  }

  /** One row per sample and name: the counters as kind 'event', the gauges as 'metric'. */
  private List<Object[]> metricLog() {
    List<Object[]> out = new ArrayList<>();
    for (var sample : db().metricLog().samples()) {
      sample.events().forEach((k, v) -> out.add(new Object[] {sample.timeMillis(), "event", k, v}));
      sample.metrics().forEach((k, v) -> out.add(new Object[] {sample.timeMillis(), "metric", k, v}));
    }
    return out;
  }

  private List<Object[]> views() {
    List<Object[]> out = new ArrayList<>();
    for (Database.ViewDefinition v : db().views()) {
      out.add(new Object[] {TravertineSchema.NAME, v.name(), v.sql()});
    }
    return out;
  }
}
