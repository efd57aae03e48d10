package dev.travertine.calcite.file;

import dev.travertine.calcite.dml.FastInsertSignature;
import dev.travertine.calcite.prepare.SqlText;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.formats.Export;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlKind;

/**
 * ClickHouse's {@code SELECT … INTO OUTFILE 'file' [TRUNCATE] [FORMAT name]}: the query's rows go
 * to a file under the data directory's {@code user_files} (where {@code file()} reads) instead of
 * to the client, which gets the number of rows written as an update count. The format is the
 * FORMAT clause's or the file's extension's (Parquet, CSV, CSVWithNames, TSV/TabSeparated,
 * TSVWithNames, JSONEachRow; TabSeparated otherwise); {@code .gz}/{@code .zst} text is
 * compressed. An existing file is an error unless TRUNCATE is given. The file appears whole when
 * the statement succeeds, and not at all when it fails or is cancelled.
 */
public final class IntoOutfile {
  private static final Pattern TAIL = Pattern.compile(
      "(?is)\\s*INTO\\s+OUTFILE\\s+'((?:[^']|'')*)'(\\s+TRUNCATE)?(?:\\s+FORMAT\\s+(\\w+))?\\s*");

  /** A query with its INTO OUTFILE clause taken off. */
  public record Spec(String query, String file, boolean truncate, String format) {}

  private IntoOutfile() {}

  /** The statement's INTO OUTFILE clause, when it ends with one (outside quotes and comments); else null. */
  public static Spec parse(String sql) {
    int at = -1;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int skip = SqlText.skipQuotedOrComment(sql, i);
      if (skip >= 0) {
        i = skip;
      } else if (Character.isLetter(c) && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1))
          && sql.charAt(i - 1) != '_')) {
        if (sql.regionMatches(true, i, "INTO", 0, 4)) {
          Matcher m = TAIL.matcher(sql).region(i, n);
          if (m.matches()) {
            at = i;
            break;
          }
        }
        i++;
      } else {
        i++;
      }
    }
    if (at < 0) {
      return null;
    }
    Matcher m = TAIL.matcher(sql).region(at, n);
    if (!m.matches()) {
      return null;
    }
    return new Spec(sql.substring(0, at), m.group(1).replace("''", "'"), m.group(2) != null, m.group(3));
  }

  /** Wraps the prepared query: executing it writes the file and returns the row count. */
  public static <T> CalcitePrepare.CalciteSignature<T> signature(String sql, Spec spec, CalcitePrepare.CalciteSignature<?> query,
      CalcitePrepare.Context context, TravertineSession session) {
    Export.Format format = spec.format() != null ? Export.named(spec.format()) : Export.ofExtension(spec.file());
    if (format == null) {
      throw new IllegalArgumentException("INTO OUTFILE: unknown format '" + spec.format()
          + "' (Parquet, CSV, CSVWithNames, TabSeparated, TSVWithNames, JSONEachRow)");
    }
    Path target = FileTable.userFile(session, spec.file(), "INTO OUTFILE writes");
    Path userFiles = session.database().userFiles();
    if (target.equals(userFiles) || target.getParent() == null) {
      throw new SecurityException("INTO OUTFILE needs a file name, not a directory: " + spec.file());
    }
    // Files under user_files are written (and named in messages) relative to it; others by their directory.
    Path base = target.startsWith(userFiles) ? userFiles : target.getParent();
    List<Column> cols = new ArrayList<>();
    for (RelDataTypeField f : query.rowType.getFieldList()) {
      cols.add(new Column(f.getName(), TypeMapping.fromRelType(f.getType()), f.getType().isNullable()));
    }
    TableSchema schema = new TableSchema(cols);
    @SuppressWarnings("unchecked")
    CalcitePrepare.CalciteSignature<T> sig = new CalcitePrepare.CalciteSignature<>(sql, query.parameters, query.internalParameters,
        RelOptUtil.createDmlRowType(SqlKind.INSERT, context.getTypeFactory()),
        List.of(FastInsertSignature.rowCountColumn()), Meta.CursorFactory.OBJECT, context.getRootSchema(), List.of(),
        -1, dataContext -> {
          session.checkWritable("INTO OUTFILE");
          long written = write(session, query, dataContext, base, target, spec.truncate(), format, schema);
          return (Enumerable<T>) (Object) Linq4j.singletonEnumerable((Object) written);
        }, Meta.StatementType.IS_DML);
    return sig;
  }

  private static long write(TravertineSession session, CalcitePrepare.CalciteSignature<?> query,
      org.apache.calcite.DataContext dataContext, Path base, Path target, boolean truncate, Export.Format format,
      TableSchema schema) {
    try {
      Files.createDirectories(target.getParent());
      if (!truncate && Files.exists(target)) {
        throw new IllegalArgumentException("INTO OUTFILE: " + base.relativize(target) + " already exists"
            + " (add TRUNCATE to replace it)");
      }
      String path = base.relativize(target).toString().replace('\\', '/');
      Enumerable<?> rows = query.enumerable(dataContext);
      try (Enumerator<?> e = rows.enumerator()) {
        Iterator<Object[]> it = new Iterator<>() {
          private Boolean ready;

          @Override public boolean hasNext() {
            if (ready == null) {
              ready = e.moveNext();
            }
            return ready;
          }

          @Override public Object[] next() {
            hasNext();
            ready = null;
            Object r = e.current();
            return r instanceof Object[] a ? a : new Object[] {r};
          }
        };
        var q = session.currentQuery();
        return Export.write(new LocalFileIO(base, session.database().storageProperties().getOrDefault(
            "storage.fsync", "true").equals("true")), path, format, schema, it, () -> {
              if (q != null) {
                q.checkCancelled();
              }
            });
      }
    } catch (IOException ex) {
      throw new UncheckedIOException("INTO OUTFILE " + target.getFileName() + ": " + ex.getMessage(), ex);
    }
  }
}
