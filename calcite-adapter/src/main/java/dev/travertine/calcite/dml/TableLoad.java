package dev.travertine.calcite.dml;

import dev.travertine.calcite.prepare.QueryTracking;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.formats.BulkLoad;
import dev.travertine.formats.FileLoad;
import dev.travertine.formats.TextFormat;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.query.QueryContext;
import dev.travertine.mergetree.query.QueryRegistry;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Settings;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * Loading files into a table through a session: the one entry that {@code bin/travertine load}
 * (embedded), the server's HTTP insert ({@code INSERT INTO t FORMAT CSV}) and the benchmarks use.
 * The load runs as a query of the session (listed in system.processes and system.query_log,
 * stopped by KILL QUERY, a closed connection or {@code max_execution_time}), with the session's
 * {@code max_threads}, {@code max_insert_block_size}, {@code input_format_null_as_default} and
 * {@code input_format_allow_errors_num} unless the request says otherwise, and the columns'
 * constant DEFAULTs for empty fields. All or nothing: see {@link BulkLoad}.
 */
public final class TableLoad {
  private TableLoad() {}

  /**
   * What to load.
   *
   * @param maxErrors bad rows to skip, or -1 for the session's {@code input_format_allow_errors_num}
   * @param description what the query log shows, e.g. {@code LOAD hits.csv INTO hits FORMAT CSV}
   */
  public record Request(String table, List<String> columns, TextFormat format, long maxErrors,
      List<BulkLoad.Source> sources, BulkLoad.Progress progress, String description) {
    public Request(String table, TextFormat format, long maxErrors, List<BulkLoad.Source> sources,
        BulkLoad.Progress progress, String description) {
      this(table, null, format, maxErrors, sources, progress, description);
    }
  }

  /**
   * Parquet or ORC files to load: their columns go to the table's by name.
   *
   * @param description what the query log shows
   */
  public record FilesRequest(String table, FileLoad.Kind kind, List<FileLoad.Input> files,
      BulkLoad.Progress progress, String description, long maxErrors) {
    /** Values that do not fit fail the load unless the session's input_format_allow_errors_num skips them. */
    public FilesRequest(String table, FileLoad.Kind kind, List<FileLoad.Input> files, BulkLoad.Progress progress,
        String description) {
      this(table, kind, files, progress, description, -1);
    }
  }

  /** Loads through an embedded connection ({@code jdbc:travertine:DIR}). */
  public static BulkLoad.Result load(Connection c, Request r) throws SQLException, IOException {
    return load(TravertineSchema.session(c), r);
  }

  /** A directory for a load's scratch files (a spooled HTTP body): {@code <data>/tmp}, created when missing. */
  public static java.nio.file.Path scratchDirectory(Connection c) throws SQLException, IOException {
    TravertineSession s = TravertineSchema.session(c);
    return s.database().scratchDirectory();
  }

  /** Loads Parquet or ORC files through an embedded connection. */
  public static BulkLoad.Result load(Connection c, FilesRequest r) throws SQLException, IOException {
    return load(TravertineSchema.session(c), r);
  }

  public static BulkLoad.Result load(TravertineSession session, FilesRequest r) throws IOException {
    return tracked(session, r.table(), r.description() != null ? r.description()
        : "LOAD INTO " + r.table() + " FORMAT " + r.kind().name(), r.progress(), (table, defaults, s, q, progress) ->
        FileLoad.load(table, r.files(), r.kind(), defaults, s.getBool(Settings.INPUT_FORMAT_NULL_AS_DEFAULT),
            options(s, null, r.maxErrors() >= 0 ? r.maxErrors() : s.getLong(Settings.INPUT_FORMAT_ALLOW_ERRORS_NUM),
                q, progress)));
  }

  public static BulkLoad.Result load(TravertineSession session, Request r) throws IOException {
    return tracked(session, r.table(), r.description() != null ? r.description()
        : "LOAD INTO " + r.table() + " FORMAT " + r.format().kind().name(), r.progress(), (table, defaults, s, q, progress) -> {
          TextFormat format = r.format().withEmptyAsDefault(r.format().emptyAsDefault()
              && s.getBool(Settings.INPUT_FORMAT_NULL_AS_DEFAULT));
          long maxErrors = r.maxErrors() >= 0 ? r.maxErrors() : s.getLong(Settings.INPUT_FORMAT_ALLOW_ERRORS_NUM);
          return BulkLoad.load(table, r.columns(), r.sources(), defaults, options(s, format, maxErrors, q, progress));
        });
  }

  /** One load, given the table, its columns' defaults, the session's settings and the query it runs as. */
  private interface Load {
    BulkLoad.Result run(MergeTreeTable table, Object[] defaults, SessionSettings settings, QueryContext q,
        BulkLoad.Progress progress) throws IOException;
  }

  /** Runs a load as a query of the session: listed, logged, stopped by KILL, a closed connection or a limit. */
  private static BulkLoad.Result tracked(TravertineSession session, String tableName, String description,
      BulkLoad.Progress progress, Load load) throws IOException {
    session.checkWritable("INSERT");
    MergeTreeTable table = session.requireTable(tableName);
    Object[] defaults = defaults(table.definition().schema());
    QueryRegistry registry = session.database().queries();
    QueryContext q = QueryTracking.begin(session, description);
    try {
      BulkLoad.Result result = load.run(table, defaults, session.settings(), q, (rows, bytes) -> {
        if (progress != null) {
          progress.update(rows, bytes);
        }
      });
      q.addReadRows(result.rows() + result.badRows());
      q.addReadBytes(result.bytesRead());
      q.addResultRows(result.rows());
      registry.finish(q, null);
      return result;
    } catch (IOException | RuntimeException | Error e) {
      registry.finish(q, e);
      throw e;
    } finally {
      session.setCurrentQuery(null);
    }
  }

  /** The session's max_threads and max_insert_block_size, the query's cancellation as checkpoint. */
  private static BulkLoad.Options options(SessionSettings s, TextFormat format, long maxErrors, QueryContext q,
      BulkLoad.Progress progress) {
    return new BulkLoad.Options(format, (int) s.getLong(Settings.MAX_THREADS), maxErrors,
        (int) Math.min(Integer.MAX_VALUE, s.getLong(Settings.MAX_INSERT_BLOCK_SIZE)), 8 << 20, q::checkCancelled,
        progress);
  }

  /** Each column's constant DEFAULT as a storage value (null: none, so NULL or the type's zero). */
  static Object[] defaults(TableSchema schema) {
    Object[] d = new Object[schema.size()];
    for (int i = 0; i < d.length; i++) {
      Column c = schema.column(i);
      if (c.defaultSql() != null) {
        try {
          d[i] = SqlMutationCompiler.constant(schema, c.defaultSql(), c.type());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(String.format(Locale.ROOT,
              "Cannot load: the DEFAULT of column %s (%s) is not a constant", c.name(),
              c.defaultSql()), e);
        }
      }
    }
    return d;
  }
}
