package dev.travertine.calcite;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileIOs;
import dev.travertine.io.FileInfo;
import dev.travertine.io.Globs;
import dev.travertine.io.IoPool;
import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.mergetree.block.Vectors;
import dev.travertine.mergetree.part.OrcSupport;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.DataType;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.schema.TypeKind;
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
 * The table functions {@code file(pattern)}, {@code s3(pattern)} and {@code hdfs(pattern)} over
 * plain ORC files (ClickHouse's): {@code SELECT … FROM TABLE(s3('s3://bucket/dir/*.orc'))} and
 * {@code INSERT INTO t SELECT …}. The pattern's files (globs: {@code * ? ** {a,b}}) must share
 * one schema, read from the first file. Files are read through the same path as parts (ranges
 * coalesced into capped concurrent requests) and the next file is opened while one is read.
 * {@code file()} reads only under the data directory's {@code user_files} (as ClickHouse).
 */
public final class OrcFilesTable extends AbstractTable implements ScannableTable, TranslatableTable {
  private final FileIO io;
  private final FileIOFileSystem fs;
  private final List<FileInfo> files;
  private final TableSchema schema;
  private final String scheme;
  private final String pattern;

  private OrcFilesTable(FileIO io, List<FileInfo> files, TableSchema schema, String scheme, String pattern) {
    this.io = io;
    this.fs = OrcSupport.fileSystem(io);
    this.files = files;
    this.schema = schema;
    this.scheme = scheme;
    this.pattern = pattern;
  }

  /** The macro behind one of the functions. */
  static TableMacro macro(TravertineSession session, String scheme) {
    return new TableMacro() {
      @Override public TranslatableTable apply(List<? extends Object> arguments) {
        Object a = arguments.get(0);
        String pattern = a instanceof org.apache.calcite.util.NlsString n ? n.getValue()
            : a instanceof String str ? str : null;
        if (pattern == null) {
          throw new IllegalArgumentException(scheme + "(pattern) needs a string literal, got " + (a == null ? "null" : a.getClass().getName() + " " + a));
        }
        return open(session, scheme, pattern);
      }

      @Override public List<FunctionParameter> getParameters() {
        return List.of(new FunctionParameter() {
          @Override public int getOrdinal() {
            return 0;
          }

          @Override public String getName() {
            return "pattern";
          }

          @Override public RelDataType getType(RelDataTypeFactory tf) {
            return tf.createJavaType(String.class); // Calcite hands macros literal values of Java types only
          }

          @Override public boolean isOptional() {
            return false;
          }
        });
      }
    };
  }

  static OrcFilesTable open(TravertineSession session, String scheme, String pattern) {
    String location = location(session, scheme, pattern);
    Globs.Split split = Globs.split(location);
    Map<String, String> props = session.database().storageProperties();
    FileIO io = STORAGE.computeIfAbsent(split.root() + "|" + props, k -> FileIOs.open(split.root(), props));
    try {
      List<FileInfo> files = Globs.expand(io, split.pattern());
      if (files.isEmpty()) {
        throw new IllegalArgumentException("No files match " + pattern);
      }
      TableSchema schema;
      try (Reader r = OrcSupport.openReader(OrcSupport.fileSystem(io), files.get(0).path(), files.get(0).length())) {
        schema = schemaOf(r.getSchema(), files.get(0).path());
      }
      return new OrcFilesTable(io, files, schema, scheme, pattern);
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
        Path base = session.database().directory().resolve("user_files").normalize();
        String p = pattern.startsWith("file:") ? java.net.URI.create(pattern).getPath() : pattern;
        Path full = base.resolve(p).normalize();
        if (!full.startsWith(base)) {
          throw new IllegalArgumentException("file() reads only under " + base + ": " + pattern);
        }
        return full.toString();
      }
    }
  }

  private static TableSchema schemaOf(TypeDescription t, String file) {
    if (t.getCategory() != TypeDescription.Category.STRUCT || t.getChildren().isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + file + ": its ORC schema is not a struct of columns");
    }
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < t.getChildren().size(); i++) {
      cols.add(new Column(t.getFieldNames().get(i), DataType.fromOrc(t.getChildren().get(i)), true));
    }
    return new TableSchema(cols);
  }

  @Override public RelDataType getRowType(RelDataTypeFactory tf) {
    return TypeMapping.rowType(tf, schema);
  }

  @Override public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return new Scan(context.getCluster(), relOptTable, scheme, pattern);
  }

  /** Runs the scan: the files are listed again when the (possibly cached) plan executes. */
  public static Enumerable<Object[]> scanFiles(DataContext root, String scheme, String pattern) {
    TravertineSession session = TravertineSchema.session(java.util.Objects.requireNonNull(root.getRootSchema()));
    return open(session, scheme, pattern).scan(root);
  }

  /** The physical scan: generated code calls {@link #scanFiles(DataContext, String, String)}. */
  static final class Scan extends org.apache.calcite.rel.core.TableScan
      implements org.apache.calcite.adapter.enumerable.EnumerableRel {
    private final String scheme;
    private final String pattern;

    Scan(org.apache.calcite.plan.RelOptCluster cluster, RelOptTable table, String scheme, String pattern) {
      super(cluster, cluster.traitSetOf(org.apache.calcite.adapter.enumerable.EnumerableConvention.INSTANCE),
          List.of(), table);
      this.scheme = scheme;
      this.pattern = pattern;
    }

    @Override public RelNode copy(org.apache.calcite.plan.RelTraitSet traitSet, List<RelNode> inputs) {
      return new Scan(getCluster(), getTable(), scheme, pattern);
    }

    @Override public org.apache.calcite.rel.RelWriter explainTerms(org.apache.calcite.rel.RelWriter pw) {
      return super.explainTerms(pw).item("files", scheme + "('" + pattern + "')");
    }

    @Override public Result implement(org.apache.calcite.adapter.enumerable.EnumerableRelImplementor implementor,
        Prefer pref) {
      var physType = org.apache.calcite.adapter.enumerable.PhysTypeImpl.of(implementor.getTypeFactory(),
          getRowType(), org.apache.calcite.adapter.enumerable.JavaRowFormat.ARRAY);
      var call = org.apache.calcite.linq4j.tree.Expressions.call(OrcFilesTable.class, "scanFiles", DataContext.ROOT,
          org.apache.calcite.linq4j.tree.Expressions.constant(scheme),
          org.apache.calcite.linq4j.tree.Expressions.constant(pattern));
      return implementor.result(physType, org.apache.calcite.linq4j.tree.Blocks.toBlock(call));
    }
  }

  @Override public Enumerable<Object[]> scan(DataContext root) {
    return new AbstractEnumerable<>() {
      @Override public Enumerator<Object[]> enumerator() {
        return new FilesEnumerator();
      }
    };
  }

  /** Reads the files in order; the next file's reader is opened on the IO pool meanwhile. */
  private final class FilesEnumerator implements Enumerator<Object[]> {
    private final TypeKind[] kinds = schema.columns().stream().map(c -> c.type().kind()).toArray(TypeKind[]::new);
    private int file = -1;
    private CompletableFuture<RecordReader> next;
    private RecordReader rows;
    private VectorizedRowBatch batch;
    private int pos;
    private Object[] current;

    private CompletableFuture<RecordReader> openAsync(int i) {
      FileInfo f = files.get(i);
      return CompletableFuture.supplyAsync(() -> {
        try {
          Reader r = OrcSupport.openReader(fs, f.path(), f.length());
          TableSchema s = schemaOf(r.getSchema(), f.path());
          if (!s.equals(schema)) {
            throw new IllegalArgumentException("File " + f.path() + " of " + pattern + " has another schema ("
                + s.columns() + ") than the first file");
          }
          return r.rows(r.options().schema(r.getSchema()));
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read " + f.path() + ": " + e.getMessage(), e);
        }
      }, IoPool.prefetchExecutor()); // opening reads the first stripe: it waits for reads on IoPool.executor()
    }

    @Override public Object[] current() {
      return current;
    }

    @Override public boolean moveNext() {
      try {
        while (batch == null || pos >= batch.size) {
          if (rows == null || !rows.nextBatch(batch) || batch.size == 0) {
            if (rows != null) {
              rows.close();
              rows = null;
            }
            if (!nextFile()) {
              return false;
            }
            batch = schema.orcSchema().createRowBatch(1024);
            batch.size = 0;
          }
          pos = 0;
        }
        Object[] row = new Object[kinds.length];
        for (int c = 0; c < kinds.length; c++) {
          row[c] = Vectors.get(batch.cols[c], kinds[c], pos);
        }
        pos++;
        current = row;
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + pattern + ": " + e.getMessage(), e);
      }
    }

    private boolean nextFile() {
      file++;
      if (file >= files.size()) {
        return false;
      }
      CompletableFuture<RecordReader> f = next != null ? next : openAsync(file);
      next = file + 1 < files.size() ? openAsync(file + 1) : null;
      try {
        rows = f.join();
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
      }
      return true;
    }

    @Override public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override public void close() {
      try {
        if (rows != null) {
          rows.close();
        }
        if (next != null) {
          next.thenAccept(r -> {
            try {
              r.close();
            } catch (IOException e) {
              // unused
            }
          });
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
