package dev.travertine.mergetree.part;

import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.RowFilter;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

/**
 * Reads a part's rows in the table's current schema: ORC's schema evolution matches file
 * columns by storage name and converts changed types; columns the part lacks read as their
 * default. Every reader of parts (scans, merges, mutations) goes through here.
 */
public final class PartReader implements AutoCloseable {
  /**
   * Whether scans read parts, local or remote, with our own reader of ORC's streams where it can
   * ({@link OrcStreamReader}: stripes of the common types, every row or the granules a searched
   * read keeps; a PREWHERE is evaluated per batch). The system property {@code
   * travertine.scan.ownOrcReader=false} turns it off (to compare the two).
   */
  static final boolean OWN_READER = !"false".equals(System.getProperty("travertine.scan.ownOrcReader"));

  private final Reader reader;
  /** ORC's reader of the rows, or null when {@link #own} reads them. */
  private final RecordReader rows;
  private final OrcStreamReader own;
  private final ColumnMapping mapping;
  private final boolean[] include;

  /** Rows the row filter examined (every row decoded, passing or not); 0 without a filter. */
  private final long[] filtered;

  /** Table columns read that the file stores as scaled longs (empty for most parts). */
  private final int[] scaledColumns;

  /** Per table column, the vector ORC fills for a scaled column read through a conversion (lazily). */
  private final Decimal64ColumnVector[] scratch;

  private PartReader(Reader reader, RecordReader rows, OrcStreamReader own, ColumnMapping mapping, boolean[] include,
      long[] filtered) {
    this.reader = reader;
    this.rows = rows;
    this.own = own;
    this.mapping = mapping;
    this.include = include;
    this.filtered = filtered;
    int n = mapping.schema().size();
    int[] scaled = new int[n];
    int k = 0;
    for (int c = 0; c < n; c++) {
      if (mapping.scaled(c) && (include == null || include[c + 1])) {
        scaled[k++] = c;
      }
    }
    this.scaledColumns = java.util.Arrays.copyOf(scaled, k);
    this.scratch = k == 0 ? null : new Decimal64ColumnVector[n];
  }

  /**
   * Whether batches come filtered by a {@link RowFilter}: then {@code batch.selectedInUse} is set
   * and {@code batch.selected[0 .. size)} are the passing rows; {@link #filteredRows} counts the
   * rows read.
   */
  /**
   * For a prefetch: reads the first stripe's streams as stored, without decoding anything, and
   * returns true once they have arrived; false when ORC's reader reads the part (a prefetch then
   * reads its first batch).
   */
  public boolean fetchAhead() throws IOException {
    if (own == null) {
      return false;
    }
    own.fetchNext();
    own.awaitFetched(); // the prefetch is done when the bytes are here: the prefetch window measures that
    return true;
  }

  public boolean rowFiltered() {
    return filtered != null;
  }

  public long filteredRows() {
    return filtered == null ? 0 : filtered[0];
  }

  /**
   * Opens a part. {@code include} is by ORC column id of the schema (0 = the struct; null = all);
   * {@code sarg} skips row groups (ignored when the file's schema differs); {@code offset/length}
   * restrict to a stripe range (length &lt; 0 = whole file).
   */
  public static PartReader open(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length) throws IOException {
    return open(part, schema, include, sarg, sargColumns, offset, length, null);
  }

  /** As above, with a query's remote read options (null: the storage's defaults). */
  public static PartReader open(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length, FileIOFileSystem.ReadOptions read) throws IOException {
    return open(part, schema, include, sarg, sargColumns, offset, length, read, null);
  }

  /**
   * As above, with a {@link RowFilter} evaluated before the other columns are decoded (null: none;
   * ignored when the part's file schema differs from the table's).
   */
  public static PartReader open(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length, FileIOFileSystem.ReadOptions read, RowFilter rowFilter)
      throws IOException {
    return open(part, schema, include, sarg, sargColumns, offset, length, read, rowFilter, VectorForms.HIVE, false, null);
  }

  /**
   * As above, for a scan: our reader of ORC's streams ({@link OrcStreamReader}) reads the part
   * where it can, local or remote (a prefetch of a remote part reads its streams as stored, {@link
   * #fetchAhead}; merges, mutations and CHECK keep ORC's reader, which holds a chunk at a time
   * where ours holds the stripe's streams decompressed). {@code vectors}: which of our vectors the
   * caller takes in place of Hive's (where our reader reads the part).
   * {@code granules} (null: all) are the part's granules the scan reads, those {@code sarg} was
   * built to find: our reader reads only their rows and passes over the others, when they are at
   * least {@link #OWN_READER_GRANULES} of the part's; else ORC's reader skips row groups by {@code
   * sarg} (it seeks into a stripe where ours passes over runs).
   */
  public static PartReader open(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length, FileIOFileSystem.ReadOptions read, RowFilter rowFilter,
      VectorForms vectors, boolean[] granules) throws IOException {
    return open(part, schema, include, sarg, sargColumns, offset, length, read, rowFilter, vectors, OWN_READER,
        granules);
  }

  /** Which of our vectors a caller takes in place of Hive's. */
  public enum VectorForms {
    /** Hive's vectors only. */
    HIVE,
    /**
     * Strings of a stripe's dictionary as {@link dev.travertine.vector.DictionaryVector}s ({@link
     * OrcStreamReader#dictionaryStrings}): made for each batch, so a caller may keep them.
     */
    DICTIONARY_STRINGS,
    /**
     * Those, and integers narrower than 8 bytes as {@link dev.travertine.vector.IntegerVector}s
     * ({@link OrcStreamReader#narrowIntegers}), whose arrays are filled again when their batch is
     * given back: for a caller that keeps no vector of a batch it gives back.
     */
    NARROW
  }

  /** The least share of a part's granules a searched read must take for our reader to read it. */
  static final double OWN_READER_GRANULES = 1.0 / 8;

  /** As above; {@code ownReader}: whether {@link OrcStreamReader} may read the part. */
  static PartReader open(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length, FileIOFileSystem.ReadOptions read, RowFilter rowFilter,
      VectorForms vectors, boolean ownReader, boolean[] granules) throws IOException {
    if (read == null) {
      return doOpen(part, schema, include, sarg, sargColumns, offset, length, rowFilter, vectors, ownReader,
          granules);
    }
    return FileIOFileSystem.withReadOptions(read, () -> doOpen(part, schema, include, sarg, sargColumns, offset,
        length, rowFilter, vectors, ownReader, granules));
  }

  /** Whether our reader takes a read of these granules (null: all) that {@code sarg} (null: none) searches. */
  private static boolean ownReads(PartRef part, SearchArgument sarg, boolean[] granules) {
    if (sarg == null) {
      return true;
    }
    if (granules == null || part.index().granularity() <= 0) {
      return false;
    }
    int n = 0;
    for (boolean g : granules) {
      n += g ? 1 : 0;
    }
    return n >= granules.length * OWN_READER_GRANULES;
  }

  private static PartReader doOpen(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length, RowFilter rowFilter, VectorForms vectors,
      boolean ownReader, boolean[] granules) throws IOException {
    ColumnMapping mapping = part.mapping(schema);
    Reader reader = part.openReader();
    try {
      if (ownReader && mapping.identical() && ownReads(part, sarg, granules)) {
        OrcStreamReader own = OrcStreamReader.open(part::openStream, reader, include, offset, length);
        if (own != null) {
          try {
            long[] filtered = rowFilter == null ? null : new long[1];
            if (rowFilter == null || own.filterRows(rowFilter, filtered)) {
              own.dictionaryStrings(vectors != VectorForms.HIVE);
              own.narrowIntegers(vectors == VectorForms.NARROW);
              if (granules != null) {
                own.granules(granules, part.index().granularity());
              }
              return new PartReader(reader, null, own, mapping, include, filtered);
            }
          } catch (RuntimeException e) {
            own.close();
            throw e;
          }
          own.close();
        }
      }
      Reader.Options o = reader.options().schema(mapping.readerSchema()).useSelected(false);
      if (include != null) {
        o.include(include);
      }
      if (sarg != null && mapping.identical()) {
        o.searchArgument(sarg, sargColumns);
        o.allowSARGToFilter(false);
      }
      if (length >= 0) {
        o.range(offset, length);
      }
      long[] filtered = null;
      if (rowFilter != null && mapping.identical()) {
        filtered = new long[1];
        setRowFilter(o, schema, rowFilter, filtered);
      }
      return new PartReader(reader, reader.rows(o), null, mapping, include, filtered);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private static void setRowFilter(Reader.Options o, TableSchema schema, RowFilter rowFilter, long[] filtered) {
    int[] columns = rowFilter.columns();
    String[] names = new String[columns.length];
    for (int i = 0; i < columns.length; i++) {
      names[i] = schema.column(columns[i]).storage();
    }
    RowFilter.Instance f = rowFilter.create();
    ColumnVector[] cols = new ColumnVector[schema.size()];
    o.setRowFilter(names, ctx -> {
      for (int i = 0; i < columns.length; i++) {
        ColumnVector[] path = ctx.findColumnVector(names[i]);
        cols[columns[i]] = path[path.length - 1];
      }
      int n = ctx.getSelectedSize();
      filtered[0] += n;
      int[] sel;
      if (ctx.isSelectedInUse()) {
        sel = ctx.getSelected(); // narrowed already: filter what is left
      } else {
        sel = ctx.updateSelected(n);
        for (int i = 0; i < n; i++) {
          sel[i] = i;
        }
      }
      OrcTimestamps.afterRead(cols, n == 0 ? 0 : sel[n - 1] + 1); // selections ascend
      int m = f.filter(cols, sel, n);
      ctx.setSelectedInUse(true);
      ctx.setSelectedSize(m);
    });
    o.useSelected(true);
  }

  public Reader reader() {
    return reader;
  }

  /** Reads the next batch; false at the end. */
  public boolean next(VectorizedRowBatch batch) throws IOException {
    if (scaledColumns.length > 0) {
      return nextConverting(batch);
    }
    if (!readBatch(batch) || batch.size == 0) {
      return false;
    }
    return afterRead(batch);
  }

  /**
   * Reads a batch of a part with scaled DECIMAL columns: ORC fills a scaled vector of the table's
   * scale in place; a vector of another form or type gets the file's values through a scratch
   * vector and {@link ScaledDecimalReads}.
   */
  private boolean nextConverting(VectorizedRowBatch batch) throws IOException {
    ColumnVector[] given = null;
    for (int c : scaledColumns) {
      if (readsInPlace(c, batch.cols[c])) {
        continue; // ORC's integer reader fills it as it is
      }
      if (given == null) {
        given = batch.cols.clone();
      }
      Decimal64ColumnVector s = scratch[c];
      if (s == null || s.vector.length < batch.getMaxSize()) {
        s = ScaledDecimalReads.scratch(batch.getMaxSize(), mapping.fileType(c));
        scratch[c] = s;
      }
      batch.cols[c] = s;
    }
    boolean read;
    try {
      read = readBatch(batch) && batch.size > 0;
    } finally {
      if (given != null) {
        // only the scaled columns swapped for scratch vectors: a reader may have put a vector of its own in another
        for (int c : scaledColumns) {
          if (batch.cols[c] == scratch[c]) {
            batch.cols[c] = given[c];
          }
        }
      }
    }
    if (!read) {
      return false;
    }
    if (given != null) {
      int rowsRead = !batch.selectedInUse ? batch.size : batch.selected[batch.size - 1] + 1;
      List<TypeDescription> types = mapping.schema().orcSchema().getChildren();
      for (int c : scaledColumns) {
        if (!readsInPlace(c, given[c])) {
          ScaledDecimalReads.convert(scratch[c], rowsRead, given[c], types.get(c));
        }
      }
    }
    return afterRead(batch);
  }

  private boolean readBatch(VectorizedRowBatch batch) throws IOException {
    return own != null ? own.next(batch) : rows.nextBatch(batch);
  }

  /** Whether ORC's reader fills {@code v} with scaled column {@code c}'s values as they are. */
  private boolean readsInPlace(int c, ColumnVector v) {
    return mapping.sameType(c) && v instanceof Decimal64ColumnVector d && d.scale == mapping.fileType(c).getScale();
  }

  private boolean afterRead(VectorizedRowBatch batch) {
    if (own == null) { // our reader's timestamps come right; ORC's: the rows read, a filtered batch's
      // selection reaching past its size (selections ascend)
      OrcTimestamps.afterRead(batch.cols,
          batch.selectedInUse && batch.size > 0 ? batch.selected[batch.size - 1] + 1 : batch.size);
    }
    if (!mapping.identical()) {
      TableSchema schema = mapping.schema();
      for (int c = 0; c < schema.size(); c++) {
        if (mapping.missing(c) && (include == null || include[c + 1]) && mapping.defaultValue(c) != null) {
          ColumnVector v = batch.cols[c];
          v.reset();
          v.isRepeating = true;
          Object value = mapping.defaultValue(c);
          if (schema.column(c).type().kind() == TypeKind.BOOLEAN) {
            value = ((Number) value).longValue() != 0; // statistics keep booleans as 0/1
          }
          Vectors.setDetached(v, schema.column(c).type(), 0, value);
        }
      }
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    try {
      if (own != null) {
        own.close();
      } else {
        rows.close();
      }
    } finally {
      reader.close();
    }
  }
}
