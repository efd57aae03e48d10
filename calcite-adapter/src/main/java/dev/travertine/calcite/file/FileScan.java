package dev.travertine.calcite.file;

import dev.travertine.calcite.runtime.TravertineRuntime;
import dev.travertine.io.FileInfo;
import dev.travertine.io.IoPool;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The row-at-a-time scan of files (Enumerable): what runs when the vectorized engine does not
 * (it is off, or a column type is not one of its types). Reads the projected columns only, the
 * files in order, the next one opened on the IO pool meanwhile.
 */
public final class FileScan extends TableScan implements EnumerableRel {
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalFileScan.class, Convention.NONE, EnumerableConvention.INSTANCE, "FileScanRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts the logical scan. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      LogicalFileScan scan = (LogicalFileScan) rel;
      return new FileScan(scan.getTraitSet().replace(EnumerableConvention.INSTANCE), scan);
    }
  }

  private final LogicalFileScan logical;

  FileScan(RelTraitSet traits, LogicalFileScan logical) {
    super(logical.getCluster(), traits, List.of(), logical.getTable());
    this.logical = logical;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new FileScan(traitSet, logical);
  }

  @Override public RelDataType deriveRowType() {
    return logical.getRowType();
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return logical.estimateRowCount(mq);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return logical.readCost(planner, mq).multiplyBy(10); // rows, not vectors
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return logical.explainTerms(pw);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    JavaRowFormat format = getRowType().getFieldCount() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY;
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), format, false);
    BlockBuilder b = new BlockBuilder();
    Expression enumerable = b.append("enumerable", Expressions.call(TravertineRuntime.class, "scanFiles", DataContext.ROOT,
        implementor.stash(logical.spec(), FileScanSpec.class)));
    b.add(Expressions.return_(null, enumerable));
    return implementor.result(physType, b.toBlock());
  }

  /** The projected columns of a table's files as rows. */
  public static Enumerable<Object[]> rows(FileTable t, int[] projection) {
    return new AbstractEnumerable<>() {
      @Override public Enumerator<Object[]> enumerator() {
        return new FilesEnumerator(t, projection);
      }
    };
  }

  /** Reads the files in order; the next file is opened on the IO pool meanwhile. */
  private static final class FilesEnumerator implements Enumerator<Object[]> {
    private final FileTable table;
    private final int[] projection;
    private final TypeKind[] kinds;
    private int file = -1;
    private CompletableFuture<FileTable.FileBatches> next;
    private FileTable.FileBatches rows;
    private org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch batch;
    private int pos;
    private Object[] current;

    FilesEnumerator(FileTable table, int[] projection) {
      this.table = table;
      this.projection = projection;
      kinds = new TypeKind[projection.length];
      for (int i = 0; i < projection.length; i++) {
        kinds[i] = table.schema().column(projection[i]).type().kind();
      }
    }

    private CompletableFuture<FileTable.FileBatches> openAsync(int i) {
      FileInfo f = table.files().get(i);
      return CompletableFuture.supplyAsync(() -> {
        try {
          return table.openFile(f, projection);
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read " + f.path() + ": " + e.getMessage(), e);
        }
      }, IoPool.prefetchExecutor()); // opening reads the file's tail: it waits for reads on IoPool.executor()
    }

    @Override public Object[] current() {
      return current;
    }

    @Override public boolean moveNext() {
      try {
        while (batch == null || pos >= batch.size) {
          batch = rows == null ? null : rows.next();
          if (batch == null) {
            if (rows != null) {
              rows.close();
              rows = null;
            }
            if (!nextFile()) {
              return false;
            }
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
        throw new UncheckedIOException("Cannot read " + table.describe() + ": " + e.getMessage(), e);
      }
    }

    private boolean nextFile() {
      file++;
      if (file >= table.files().size()) {
        return false;
      }
      CompletableFuture<FileTable.FileBatches> f = next != null ? next : openAsync(file);
      next = file + 1 < table.files().size() ? openAsync(file + 1) : null;
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
