package dev.travertine.calcite.file;

import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.formats.FileFormat;
import dev.travertine.formats.FileLoad;
import dev.travertine.formats.TextFiles;
import dev.travertine.formats.parquet.ParquetFileBatches;
import dev.travertine.io.FileIO;
import dev.travertine.io.FileIOs;
import dev.travertine.io.FileInfo;
import dev.travertine.io.Globs;
import dev.travertine.io.IoPool;
import dev.travertine.io.SequentialStream;
import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.mergetree.part.OrcSupport;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.TableMacro;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

/**
 * The table functions {@code file(pattern [, format [, structure]])}, {@code s3(…)} and
 * {@code hdfs(…)} over plain files (ClickHouse's): {@code SELECT … FROM TABLE(s3('s3://bucket/dir/*.parquet'))}
 * and {@code INSERT INTO t SELECT …}. The format is the second argument (see {@link FileFormat}) or
 * the pattern's extension. ORC and Parquet files carry their columns; text files (CSV, TSV, JSON
 * lines) take the structure argument ({@code 'id BIGINT, name VARCHAR'}) or the columns
 * {@link TextFiles#infer} finds in the first file. The pattern's files (globs: {@code * ? ** {a,b}})
 * must share one schema, read from the first file. Files are read through the same storage as
 * parts and the next file is opened while one is read. {@code file()} reads only under the data
 * directory's {@code user_files} (as ClickHouse).
 */
public final class FileTable extends AbstractTable implements ScannableTable, TranslatableTable {
  private final FileIO io;
  private final FileIOFileSystem fs;
  private final List<FileInfo> files;
  private final TableSchema schema;
  private final String scheme;
  private final String pattern;
  private final FileFormat format;
  private final String structure;
  private final boolean skipHeader;

  private FileTable(FileIO io, List<FileInfo> files, TableSchema schema, String scheme, String pattern,
      FileFormat format, String structure, boolean skipHeader) {
    this.io = io;
    this.fs = OrcSupport.fileSystem(io);
    this.files = files;
    this.schema = schema;
    this.scheme = scheme;
    this.pattern = pattern;
    this.format = format;
    this.structure = structure;
    this.skipHeader = skipHeader;
  }

  TableSchema schema() {
    return schema;
  }

  FileIO io() {
    return io;
  }

  List<FileInfo> files() {
    return files;
  }

  FileFormat format() {
    return format;
  }

  /** Whether the first line of each (text) file was found to be a header and is skipped. */
  boolean skipHeader() {
    return skipHeader;
  }

  /** The macro behind one of the functions. */
  public static TableMacro macro(TravertineSession session, String scheme) {
    return new TableMacro() {
      @Override public TranslatableTable apply(List<? extends Object> arguments) {
        String pattern = string(arguments.get(0));
        if (pattern == null) {
          Object a = arguments.get(0);
          throw new IllegalArgumentException(scheme + "(pattern [, format [, structure]]) needs a string literal,"
              + " got " + (a == null ? "null" : a.getClass().getName() + " " + a));
        }
        String format = arguments.size() > 1 ? string(arguments.get(1)) : null;
        String structure = arguments.size() > 2 ? string(arguments.get(2)) : null;
        return open(session, scheme, pattern, format, structure);
      }

      @Override public List<FunctionParameter> getParameters() {
        return List.of(parameter(0, "pattern", false), parameter(1, "format", true), parameter(2, "structure", true));
      }
    };
  }

  private static String string(Object a) {
    return a instanceof org.apache.calcite.util.NlsString n ? n.getValue() : a instanceof String str ? str : null;
  }

  private static FunctionParameter parameter(int ordinal, String name, boolean optional) {
    return new FunctionParameter() {
      @Override public int getOrdinal() {
        return ordinal;
      }

      @Override public String getName() {
        return name;
      }

      @Override public RelDataType getType(RelDataTypeFactory tf) {
        return tf.createJavaType(String.class); // Calcite hands macros literal values of Java types only
      }

      @Override public boolean isOptional() {
        return optional;
      }
    };
  }

  /** The format a function's argument names, or its pattern's extension. */
  static FileFormat format(String scheme, String pattern, String format) {
    if (format != null && !format.isEmpty() && !format.equalsIgnoreCase("auto")) {
      FileFormat f = FileFormat.named(format);
      if (f == null) {
        throw new IllegalArgumentException(scheme + "(): unknown format '" + format + "' (" + FileFormat.NAMES + ")");
      }
      return f;
    }
    FileFormat f = FileFormat.ofExtension(pattern);
    if (f == null) {
      throw new IllegalArgumentException(scheme + "(): cannot tell the format of '" + pattern
          + "' from its extension; give it as the second argument (" + FileFormat.NAMES + ")");
    }
    return f;
  }

  static FileTable open(TravertineSession session, String scheme, String pattern, String formatName,
      String structure) {
    String location = location(session, scheme, pattern);
    Globs.Split split = Globs.split(location);
    Map<String, String> props = session.database().storageProperties();
    FileIO io = STORAGE.computeIfAbsent(split.root() + "|" + props, k -> FileIOs.open(split.root(), props));
    try {
      List<FileInfo> files = Globs.expand(io, split.pattern());
      if (files.isEmpty()) {
        throw new IllegalArgumentException("No files match " + pattern);
      }
      boolean named = formatName != null && !formatName.isEmpty() && !formatName.equalsIgnoreCase("auto");
      FileFormat format = format(scheme, !named && FileFormat.ofExtension(pattern) == null
          && FileFormat.ofExtension(files.get(0).path()) != null ? files.get(0).path() : pattern, formatName);
      if (structure != null && !format.isText()) {
        throw new IllegalArgumentException(scheme + "(): " + format.name() + " files carry their own columns;"
            + " a structure is for text formats");
      }
      TableSchema schema;
      boolean skipHeader = false;
      FileInfo first = files.get(0);
      if (format.isText()) {
        if (structure != null) {
          schema = FileFormat.structure(structure);
        } else {
          TextFiles.Inferred inferred = TextFiles.infer(SequentialStream.open(io.newInputFile(first.path(),
              first.length()), 1 << 20), first.path(), format.text());
          schema = inferred.schema();
          skipHeader = inferred.header();
        }
      } else if (format.binary() == FileLoad.Kind.PARQUET) {
        try (ParquetFileBatches p = ParquetFileBatches.open(io.newInputFile(first.path(), first.length()), first.path())) {
          schema = nullable(p.schema());
        }
      } else {
        try (Reader r = OrcSupport.openReader(OrcSupport.fileSystem(io), first.path(), first.length())) {
          schema = schemaOf(r.getSchema(), first.path());
        }
      }
      return new FileTable(io, files, schema, scheme, pattern, format, structure, skipHeader);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + pattern + ": " + e.getMessage(), e);
    }
  }

  /** Storage opened by table functions, kept for the process (an S3 client is costly to build). */
  private static final Map<String, FileIO> STORAGE = new java.util.concurrent.ConcurrentHashMap<>();

  /** The full location of a pattern: s3:// and hdfs:// as given; file() under user_files. */
  private static String location(TravertineSession session, String scheme, String pattern) {
    switch (scheme) {
      case "s3", "hdfs" -> {
        if (!pattern.startsWith(scheme + "://")) {
          throw new IllegalArgumentException(scheme + "() needs a " + scheme + ":// location, got " + pattern);
        }
        return pattern;
      }
      default -> {
        String p = pattern.startsWith("file:") ? java.net.URI.create(pattern).getPath() : pattern;
        return userFile(session, p, "file() reads").toString();
      }
    }
  }

  /**
   * A local path as file() and INTO OUTFILE take it: relative to the user files directory; outside
   * it only when the database is not confined to it (embedded, without {@code user_files_path}).
   *
   * @param what the statement's words for the refusal ("file() reads")
   */
  static Path userFile(TravertineSession session, String path, String what) {
    var db = session.database();
    Path base = db.userFiles();
    Path full = base.resolve(path).toAbsolutePath().normalize();
    if (db.userFilesConfined() && !full.startsWith(base)) {
      throw new SecurityException(what + " only under " + base + " (user_files_path): " + path);
    }
    return full;
  }

  /** The columns as the scan returns them: nullable, so that files whose columns differ only in that agree. */
  private static TableSchema nullable(TableSchema s) {
    return new TableSchema(s.columns().stream().map(c -> new Column(c.name(), c.type(), true)).toList());
  }

  private static TableSchema schemaOf(TypeDescription t, String file) {
    if (t.getCategory() != TypeDescription.Category.STRUCT || t.getChildren().isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + file + ": its ORC schema is not a struct of columns");
    }
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < t.getChildren().size(); i++) {
      cols.add(new Column(t.getFieldNames().get(i), OrcTypes.fromOrc(t.getChildren().get(i)), true));
    }
    return new TableSchema(cols);
  }

  @Override public RelDataType getRowType(RelDataTypeFactory tf) {
    return TypeMapping.rowType(tf, schema);
  }

  @Override public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return LogicalFileScan.create(context.getCluster(), relOptTable, this);
  }

  /** What a plan keeps of this table to open it again when it runs (the files are listed again then). */
  FileScanSpec spec(int[] projection) {
    return new FileScanSpec(scheme, pattern, format.name(), structure, projection);
  }

  /** The table a spec names, its files listed now. */
  public static FileTable open(TravertineSession session, FileScanSpec spec) {
    return open(session, spec.scheme(), spec.pattern(), spec.format(), spec.structure());
  }

  String describe() {
    return scheme + "('" + pattern + "', '" + format.name() + "'" + (structure == null ? "" : ", '" + structure + "'")
        + ")";
  }

  @Override public Enumerable<Object[]> scan(DataContext root) {
    int[] all = java.util.stream.IntStream.range(0, schema.size()).toArray();
    return FileScan.rows(this, all);
  }

  /**
   * One file's rows as batches of the projected columns ({@code projection}: table columns, in the
   * batch's column order), each batch fresh (not reused by the next call).
   */
  interface FileBatches extends AutoCloseable {
    /** The next batch, or null at the end. */
    VectorizedRowBatch next() throws IOException;

    @Override void close() throws IOException;
  }

  /** Opens a Parquet file of this table; its columns must be the first file's. */
  ParquetFileBatches openParquet(FileInfo f) throws IOException {
    ParquetFileBatches p = ParquetFileBatches.open(io.newInputFile(f.path(), f.length()), f.path());
    TableSchema s = nullable(p.schema());
    if (!s.equals(schema)) {
      p.close();
      throw new IllegalArgumentException("File " + f.path() + " of " + pattern + " has another schema ("
          + s.columns() + ") than the first file");
    }
    return p;
  }

  /** Rows of a Parquet or ORC file, from its footer. */
  long rowCount(FileInfo f) throws IOException {
    if (format.binary() == FileLoad.Kind.PARQUET) {
      try (ParquetFileBatches p = ParquetFileBatches.open(io.newInputFile(f.path(), f.length()), f.path())) {
        return p.totalRows();
      }
    }
    try (Reader r = OrcSupport.openReader(fs, f.path(), f.length())) {
      return r.getNumberOfRows();
    }
  }

  /** Opens one file for reading the projected columns (Parquet and ORC read only those). */
  FileBatches openFile(FileInfo f, int[] projection) throws IOException {
    if (format.isText()) {
      TextFiles.Reader r = new TextFiles.Reader(SequentialStream.open(io.newInputFile(f.path(), f.length()), 4 << 20),
          f.path(), format.text(), schema, skipHeader);
      return new FileBatches() {
        @Override public VectorizedRowBatch next() throws IOException {
          VectorizedRowBatch b = r.next();
          if (b == null) {
            return null;
          }
          VectorizedRowBatch out = new VectorizedRowBatch(projection.length);
          for (int i = 0; i < projection.length; i++) {
            out.cols[i] = b.cols[projection[i]];
          }
          out.size = b.size;
          return out;
        }

        @Override public void close() throws IOException {
          r.close();
        }
      };
    }
    if (format.binary() == FileLoad.Kind.PARQUET) {
      ParquetFileBatches p = openParquet(f);
      return new FileBatches() {
        private int group;
        private final java.util.ArrayDeque<VectorizedRowBatch> ready = new java.util.ArrayDeque<>();

        @Override public VectorizedRowBatch next() throws IOException {
          while (ready.isEmpty() && group < p.rowGroups()) {
            if (projection.length == 0) { // COUNT(*): row counts from the footer, nothing decoded
              long n = p.rows(group++);
              while (n > 0) {
                VectorizedRowBatch b = new VectorizedRowBatch(0);
                b.size = (int) Math.min(n, 1024);
                n -= b.size;
                ready.add(b);
              }
            } else {
              p.read(group++, projection, ready::add);
            }
          }
          return ready.poll();
        }

        @Override public void close() throws IOException {
          p.close();
        }
      };
    }
    Reader r = OrcSupport.openReader(fs, f.path(), f.length());
    TableSchema s = schemaOf(r.getSchema(), f.path());
    if (!s.equals(schema)) {
      r.close();
      throw new IllegalArgumentException("File " + f.path() + " of " + pattern + " has another schema ("
          + s.columns() + ") than the first file");
    }
    TypeDescription fileType = r.getSchema();
    boolean[] include = new boolean[fileType.getMaximumId() + 1];
    include[0] = true;
    for (int c : projection) {
      TypeDescription child = fileType.getChildren().get(c);
      for (int id = child.getId(); id <= child.getMaximumId(); id++) {
        include[id] = true;
      }
    }
    RecordReader rows = r.rows(r.options().schema(fileType).include(include));
    return new FileBatches() {
      @Override public VectorizedRowBatch next() throws IOException {
        VectorizedRowBatch batch = fileType.createRowBatch(1024);
        if (!rows.nextBatch(batch) || batch.size == 0) {
          return null;
        }
        VectorizedRowBatch out = new VectorizedRowBatch(projection.length);
        for (int i = 0; i < projection.length; i++) {
          out.cols[i] = batch.cols[projection[i]];
        }
        out.size = batch.size;
        return out;
      }

      @Override public void close() throws IOException {
        rows.close();
      }
    };
  }
}
