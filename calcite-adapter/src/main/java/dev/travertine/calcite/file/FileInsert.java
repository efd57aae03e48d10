package dev.travertine.calcite.file;

import dev.travertine.calcite.dml.FastInsertSignature;
import dev.travertine.calcite.dml.TableLoad;
import dev.travertine.calcite.prepare.ParserFactory;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.formats.BulkLoad;
import dev.travertine.formats.FileLoad;
import dev.travertine.io.FileInfo;
import dev.travertine.io.SequentialStream;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.schema.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * The fast path for {@code INSERT INTO t SELECT * FROM TABLE(file|s3|hdfs('pattern' [, 'format'
 * [, 'structure']]))}: when the files' columns are the table's, in the same order and by the same
 * names (so that SQL's positional INSERT and the loaders' match by name agree), the statement runs
 * as one load through the parallel readers ({@link FileLoad} for Parquet and ORC, {@link BulkLoad}
 * for text): straight into column vectors and parts on {@code max_threads} threads, one commit.
 * Anything else (a column list, expressions, filters, other columns) takes the normal path.
 */
public final class FileInsert {
  private final String table;
  private final String scheme;
  private final String[] args;

  private FileInsert(String table, String scheme, String[] args) {
    this.table = table;
    this.scheme = scheme;
    this.args = args;
  }

  public static FileInsert tryPrepare(TravertineSession session, String sql, SqlParser.Config config) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.stripLeading().startsWith("insert") || !lower.contains("select")
        || !(lower.contains("file") || lower.contains("s3") || lower.contains("hdfs"))) {
      return null;
    }
    SqlNode node = ParserFactory.parseOrNull(sql, config);
    if (!(node instanceof SqlInsert ins) || ins.getTargetColumnList() != null
        || !(ins.getTargetTable() instanceof SqlIdentifier id) || id.names.size() > 2
        || (id.names.size() == 2 && !id.names.get(0).equalsIgnoreCase(TravertineSchema.NAME))
        || !(ins.getSource() instanceof SqlSelect sel)) {
      return null;
    }
    if (sel.getWhere() != null || sel.getGroup() != null || sel.getHaving() != null || sel.getOrderList() != null
        && !sel.getOrderList().isEmpty() || sel.getFetch() != null || sel.getOffset() != null || sel.isDistinct()
        || sel.getSelectList().size() != 1 || !(sel.getSelectList().get(0) instanceof SqlIdentifier star)
        || !star.isStar() || !(sel.getFrom() instanceof SqlCall from) || from.getKind() != SqlKind.COLLECTION_TABLE) {
      return null;
    }
    if (!(from.operand(0) instanceof SqlBasicCall fn) || fn.getOperator().getName() == null) {
      return null;
    }
    String scheme = fn.getOperator().getName().toLowerCase(Locale.ROOT);
    if (!List.of("file", "s3", "hdfs").contains(scheme) || fn.operandCount() < 1 || fn.operandCount() > 3) {
      return null;
    }
    String[] args = new String[3];
    for (int i = 0; i < fn.operandCount(); i++) {
      if (!(fn.operand(i) instanceof SqlCharStringLiteral lit)) {
        return null;
      }
      args[i] = lit.getValueAs(String.class);
    }
    MergeTreeTable t = session.database().table(id.names.get(id.names.size() - 1));
    if (t == null) {
      return null;
    }
    FileTable ft;
    try {
      ft = FileTable.open(session, scheme, args[0], args[1], args[2]);
    } catch (RuntimeException e) {
      return null; // the normal path reports it in its words
    }
    TableSchema ts = t.definition().schema();
    TableSchema fs = ft.schema();
    if (fs.size() != ts.size()) {
      return null;
    }
    for (int i = 0; i < fs.size(); i++) {
      if (!fs.column(i).name().equalsIgnoreCase(ts.column(i).name())) {
        return null;
      }
    }
    return new FileInsert(t.definition().name(), scheme, args);
  }

  long execute(TravertineSession session, String sql) {
    FileTable files = FileTable.open(session, scheme, args[0], args[1], args[2]); // listed again for each execution
    try {
      BulkLoad.Result r;
      if (files.format().isText()) {
        List<BulkLoad.Source> sources = new ArrayList<>();
        for (FileInfo f : files.files()) {
          sources.add(new BulkLoad.Source(f.path(), f.length(),
              () -> SequentialStream.open(files.io().newInputFile(f.path(), f.length()), 4 << 20)));
        }
        var format = files.format().text().withHeader(files.format().text().header() || files.skipHeader());
        List<String> columns = format.header() ? null : files.schema().columns().stream().map(c -> c.name()).toList();
        r = TableLoad.load(session, new TableLoad.Request(table, columns, format, 0, sources, null, sql));
      } else {
        List<FileLoad.Input> inputs = new ArrayList<>();
        for (FileInfo f : files.files()) {
          inputs.add(new FileLoad.Input(f.path(), files.io(), f.path(), f.length()));
        }
        r = TableLoad.load(session, new TableLoad.FilesRequest(table, files.format().binary(), inputs, null, sql));
      }
      return r.rows();
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  /** The prepared statement: each execution is one load. */
  public static <T> CalcitePrepare.CalciteSignature<T> signature(String sql, FileInsert insert, CalcitePrepare.Context context,
      TravertineSession session) {
    @SuppressWarnings("unchecked")
    CalcitePrepare.CalciteSignature<T> sig = new CalcitePrepare.CalciteSignature<>(sql, List.of(), java.util.Map.of(),
        RelOptUtil.createDmlRowType(SqlKind.INSERT, context.getTypeFactory()),
        List.of(FastInsertSignature.rowCountColumn()), Meta.CursorFactory.OBJECT, context.getRootSchema(), List.of(),
        -1, dataContext -> (org.apache.calcite.linq4j.Enumerable<T>) (Object) Linq4j.singletonEnumerable(
            (Object) insert.execute(session, sql)), Meta.StatementType.IS_DML);
    return sig;
  }
}
