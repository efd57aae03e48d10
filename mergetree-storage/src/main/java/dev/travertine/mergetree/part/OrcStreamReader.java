package dev.travertine.mergetree.part;

import dev.travertine.mergetree.part.OrcColumnReaders.Column;
import dev.travertine.mergetree.part.OrcColumnReaders.Stream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionCodec;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.impl.OrcCodecPool;

/**
 * Our own reader of a part's ORC streams, for whole stripes of top-level columns of the common
 * types: integers, DATE and scaled DECIMALs (integer run-length encoding v2), TIMESTAMP (seconds
 * and nanoseconds, each in run-length encoding v2), BOOLEAN and TINYINT (byte run-length
 * encoding), REAL and DOUBLE, and strings with or without a dictionary. It fills
 * the same Hive vectors ORC's reader fills, with the same values (NULL slots hold 1 and NaN as
 * ORC's do), in the same batches (a batch never spans two stripes).
 *
 * <p>Why: ORC's reader hands integers out one call per value and strings one reference per value
 * through several layers; this one decompresses each stream of a stripe whole and decodes runs in
 * bulk (docs/design/storage-format.md, "Reading parts"). It reads no row index, so it serves reads
 * that take every row of their stripes (no search argument; a PREWHERE filter is evaluated per
 * batch, {@link #filterRows}) of a part whose file has the table's schema; {@link #open} returns
 * null for anything else and the part is read by ORC's reader.
 */
final class OrcStreamReader implements AutoCloseable {
  /** Bytes after every decompressed stream, so that a bit-packed value is read as one long. */
  static final int PADDING = 8;

  private final FSDataInputStream in;
  private final CompressionKind compression;
  private final int bufferSize;
  private CompressionCodec codec;
  /** Where codecs that need a buffer of their own decompress a chunk (made when first needed). */
  private ByteBuffer chunkBuffer;
  private final List<StripeInformation> stripes;
  private final List<OrcProto.StripeFooter> footers;
  /** File column (top-level field) per entry of {@link #columns}, and its ORC type. */
  private final int[] fields;
  private final TypeDescription[] types;
  private final Column[] columns;
  /** By ORC column id: the entry of {@link #columns} reading it, or -1. */
  private final int[] entryOf;
  /** Per column, Hive's vector a dictionary vector of ours took the place of in the batch (reused for a stripe without one). */
  private final BytesColumnVector[] displaced;
  /** Whether strings of a dictionary come as {@link dev.travertine.vector.DictionaryVector}s. */
  private boolean dictionaryStrings;
  /** Whether integers narrower than 8 bytes come as our {@link dev.travertine.vector.IntegerVector}s. */
  private boolean narrowIntegers;
  private int stripe = -1;
  private long rowsLeft;
  /** The rows of every stripe of the file, and per stripe read, its place among them. */
  private long[] fileStripeRows;
  private int[] fileStripe;

  private OrcStreamReader(FSDataInputStream in, Reader reader, List<StripeInformation> stripes,
      List<OrcProto.StripeFooter> footers, int[] fields, TypeDescription[] types) {
    this.in = in;
    this.compression = reader.getCompressionKind();
    this.bufferSize = reader.getCompressionSize();
    this.stripes = stripes;
    this.footers = footers;
    this.fields = fields;
    this.types = types;
    this.columns = new Column[fields.length];
    this.entryOf = new int[reader.getSchema().getMaximumId() + 1];
    Arrays.fill(entryOf, -1);
    for (int i = 0; i < types.length; i++) {
      entryOf[types[i].getId()] = i;
    }
    this.displaced = new BytesColumnVector[fields.length];
  }

  /**
   * Hands strings of a stripe's dictionary out as {@link dev.travertine.vector.DictionaryVector}s
   * over a {@link dev.travertine.vector.StringDictionary} of the stripe's dictionary (its entries
   * in ORC's order, so a row's id is ORC's), in place of Hive's vector: for callers that take our
   * vectors, where the decoded-column cache and GROUP BY would otherwise hash every row's string
   * to find its id. Strings without a dictionary still come in Hive's vectors.
   */
  void dictionaryStrings(boolean on) {
    this.dictionaryStrings = on;
  }

  /**
   * Hands BOOLEAN, TINYINT, SMALLINT, INTEGER and DATE columns out as our {@link
   * dev.travertine.vector.IntegerVector}s, decoded straight into arrays of their width, in place of
   * Hive's 8-byte vectors: for callers that take our vectors and give batches back only when no one
   * reads them any more (the vectors' arrays are filled again, as Hive's are).
   */
  void narrowIntegers(boolean on) {
    this.narrowIntegers = on;
  }

  /** The footers of the stripes read (tests look at their encodings). */
  List<OrcProto.StripeFooter> footers() {
    return footers;
  }

  /** Opens the file for positioned reads. */
  interface Opener {
    FSDataInputStream open() throws IOException;
  }

  /** Whether this reader decodes columns of ORC type {@code t}. */
  static boolean supports(TypeDescription t) {
    return switch (t.getCategory()) {
      case BOOLEAN, BYTE, SHORT, INT, LONG, DATE, TIMESTAMP, FLOAT, DOUBLE, STRING -> true;
      // CHAR pads and VARCHAR truncates as ORC's reader reads them (parts store strings as STRING);
      // DECIMAL, TIMESTAMP WITH LOCAL TIME ZONE, BINARY and nested types: ORC's reader
      default -> false;
    };
  }

  /**
   * A reader of the stripes of {@code part} that start in {@code [offset, offset + length)}
   * ({@code length < 0}: all), of the top-level columns {@code include} marks by ORC column id
   * (null: all); null when some column's type or some stripe's encoding is not one this reader
   * decodes. Reads the stripes' footers.
   */
  static OrcStreamReader open(Opener file, Reader reader, boolean[] include, long offset, long length)
      throws IOException {
    TypeDescription schema = reader.getSchema();
    List<TypeDescription> children = schema.getChildren();
    int[] fields = new int[children.size()];
    TypeDescription[] types = new TypeDescription[children.size()];
    int k = 0;
    for (int f = 0; f < children.size(); f++) {
      TypeDescription t = children.get(f);
      if (include != null && (t.getId() >= include.length || !include[t.getId()])) {
        continue;
      }
      if (!supports(t)) {
        return null;
      }
      if ((t.getCategory() == TypeDescription.Category.DATE || t.getCategory() == TypeDescription.Category.TIMESTAMP)
          && reader.writerUsedProlepticGregorian()) {
        return null; // ORC's reader converts such dates and times to the hybrid calendar it reads in
      }
      fields[k] = f;
      types[k++] = t;
    }
    List<StripeInformation> stripes = new ArrayList<>();
    List<StripeInformation> all = reader.getStripes();
    long[] allRows = new long[all.size()];
    int[] index = new int[all.size()];
    int read = 0;
    for (int i = 0; i < all.size(); i++) {
      StripeInformation s = all.get(i);
      allRows[i] = s.getNumberOfRows();
      if (length < 0 || s.getOffset() >= offset && s.getOffset() < offset + length) {
        stripes.add(s);
        index[read++] = i;
      }
    }
    FSDataInputStream in = file.open();
    OrcStreamReader r = new OrcStreamReader(in, reader, stripes, new ArrayList<>(), Arrays.copyOf(fields, k),
        Arrays.copyOf(types, k));
    r.fileStripeRows = allRows;
    r.fileStripe = Arrays.copyOf(index, read);
    try {
      for (StripeInformation s : stripes) {
        OrcProto.StripeFooter footer = r.readFooter(s);
        if (!r.decodes(footer)) {
          r.close();
          return null;
        }
        r.footers.add(footer);
      }
      return r;
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
  }

  private OrcProto.StripeFooter readFooter(StripeInformation s) throws IOException {
    int len = (int) s.getFooterLength();
    byte[] raw = new byte[len];
    in.readFully(s.getOffset() + s.getIndexLength() + s.getDataLength(), raw, 0, len);
    Stream plain = decompress(ByteBuffer.wrap(raw));
    return OrcProto.StripeFooter.parseFrom(ByteBuffer.wrap(plain.bytes(), 0, plain.length()));
  }

  /**
   * The most bytes of a stripe's streams (as stored) this reader takes: it holds them decompressed
   * while it reads the stripe, where ORC's reader decompresses a chunk at a time, so a wide read of
   * long strings (a {@code SELECT *} of a URL, a title, …) is left to ORC's reader.
   */
  static final long MAX_STRIPE_BYTES = 48L << 20;

  /** Whether every column read has an encoding this reader decodes in a stripe with this footer. */
  private boolean decodes(OrcProto.StripeFooter footer) {
    if (footer.getEncryptionCount() > 0) {
      return false;
    }
    long bytes = 0;
    for (OrcProto.Stream st : footer.getStreamsList()) {
      if (isDataStream(st.getKind()) && entry(st.getColumn()) >= 0) {
        bytes += st.getLength();
      }
    }
    if (bytes > MAX_STRIPE_BYTES) {
      return false;
    }
    for (TypeDescription t : types) {
      if (t.getId() >= footer.getColumnsCount()) {
        return false;
      }
      OrcProto.ColumnEncoding.Kind e = footer.getColumns(t.getId()).getKind();
      boolean ok = switch (t.getCategory()) {
        case BOOLEAN, BYTE, FLOAT, DOUBLE -> e == OrcProto.ColumnEncoding.Kind.DIRECT;
        case STRING -> e == OrcProto.ColumnEncoding.Kind.DIRECT_V2
            || e == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2;
        default -> e == OrcProto.ColumnEncoding.Kind.DIRECT_V2;
      };
      if (!ok) {
        return false;
      }
      if (t.getCategory() == TypeDescription.Category.TIMESTAMP && !"UTC".equals(footer.getWriterTimezone())) {
        return false; // seconds from 2015-01-01 in another zone: ORC's reader, which converts them
      }
    }
    return true;
  }

  /**
   * Evaluates {@code rowFilter} on its columns before the others are decoded (PREWHERE): batches
   * then come as ORC's reader makes them with a row filter ({@code selectedInUse}, {@code
   * selected[0 .. size)} the passing rows), a batch where no row passes is not handed out, and
   * {@code filtered[0]} counts the rows examined. False, changing nothing, when the filter reads
   * a column this reader does not read.
   */
  boolean filterRows(dev.travertine.vector.RowFilter rowFilter, long[] filtered) {
    boolean[] first = new boolean[fields.length];
    for (int c : rowFilter.columns()) {
      int i = Arrays.binarySearch(fields, c);
      if (i < 0) {
        return false;
      }
      first[i] = true;
    }
    this.filter = rowFilter.create();
    this.filterColumn = first;
    this.filtered = filtered;
    return true;
  }

  /**
   * Reads only the rows of the granules (ORC's row groups) {@code selected} marks, {@code rows}
   * rows each, counted from the file's first row: batches end where a run of selected granules
   * ends, and the rows of the others are passed over (run headers read, values not decoded) as
   * ORC's reader skips row groups a search argument rules out.
   */
  void granules(boolean[] selected, int rows) {
    this.granules = selected;
    this.granuleRows = rows;
    this.stripeFirstGranule = new int[fileStripe.length];
    int g = 0;
    for (int i = 0, s = 0; i < fileStripeRows.length && s < fileStripe.length; i++) {
      if (fileStripe[s] == i) {
        stripeFirstGranule[s++] = g;
      }
      g += (int) ((fileStripeRows[i] + rows - 1) / rows); // a stripe's row groups start at its first row
    }
  }

  /** Whether granule {@code g} is read (a granule past the mask's end is: the mask covers the file). */
  private boolean granule(int g) {
    return g >= granules.length || granules[g];
  }

  private boolean[] granules;
  private int granuleRows;
  /** Per stripe read, the number of its first granule in the file. */
  private int[] stripeFirstGranule;

  private dev.travertine.vector.RowFilter.Instance filter;
  /** Per entry of {@link #columns}: whether the filter reads it (decoded first). */
  private boolean[] filterColumn;
  private long[] filtered;

  /** The entry of {@link #columns} reading ORC column {@code columnId}, or -1 when none does. */
  private int entry(int columnId) {
    return columnId >= 0 && columnId < entryOf.length ? entryOf[columnId] : -1;
  }

  /** Reads the next batch (at most its capacity, never past the stripe's end); false at the end. */
  boolean next(VectorizedRowBatch batch) throws IOException {
    if (failed) {
      throw new IllegalStateException("ORC stream reader: read again after a failed read");
    }
    failed = true; // until this read completes: a caller that goes on after an error gets no misaligned rows
    boolean more = nextBatch(batch);
    failed = false;
    return more;
  }

  private boolean failed;

  private boolean nextBatch(VectorizedRowBatch batch) throws IOException {
    while (true) {
      while (rowsLeft == 0) {
        if (stripe + 1 >= stripes.size()) {
          batch.size = 0;
          return false;
        }
        loadStripe(++stripe);
      }
      int n = (int) Math.min(batch.getMaxSize(), rowsLeft);
      if (granules != null) {
        long row = stripes.get(stripe).getNumberOfRows() - rowsLeft; // in the stripe
        int g = (int) (row / granuleRows);
        int first = stripeFirstGranule[stripe];
        long runEnd = row;
        while (runEnd < row + n && granule(first + g)) {
          runEnd = (long) ++g * granuleRows;
        }
        if (runEnd == row) { // an unselected granule: pass over the rows up to the next selected one
          while (runEnd < row + rowsLeft && !granule(first + g)) {
            runEnd = (long) ++g * granuleRows;
          }
          int skip = (int) Math.min(runEnd - row, rowsLeft);
          for (Column c : columns) {
            c.skip(skip);
          }
          rowsLeft -= skip;
          continue;
        }
        n = (int) Math.min(n, runEnd - row);
      }
      rowsLeft -= n;
      if (filter == null) {
        for (int i = 0; i < columns.length; i++) {
          readColumn(batch, i, n);
        }
        batch.size = n;
        batch.selectedInUse = false;
        return true;
      }
      for (int i = 0; i < columns.length; i++) {
        if (filterColumn[i]) {
          readColumn(batch, i, n);
        }
      }
      int[] sel = batch.selected;
      for (int r = 0; r < n; r++) {
        sel[r] = r;
      }
      filtered[0] += n;
      int m = filter.filter(batch.cols, sel, n);
      for (int i = 0; i < columns.length; i++) {
        if (!filterColumn[i]) {
          if (m == 0) {
            columns[i].skip(n); // a batch no row passes: its other columns are passed over
          } else {
            readColumn(batch, i, n);
          }
        }
      }
      if (m > 0) {
        batch.size = m;
        batch.selectedInUse = true;
        return true;
      }
    }
  }

  /**
   * Decodes the next {@code n} rows of column entry {@code i} into the batch: into its vector, or
   * as a vector of ours put in its place (strings of a dictionary, {@link #dictionaryStrings};
   * narrow integers, {@link #narrowIntegers});
   * passed over when the batch holds none for the column.
   */
  private void readColumn(VectorizedRowBatch batch, int i, int n) {
    int f = fields[i];
    ColumnVector given = batch.cols[f];
    if (given == null) {
      columns[i].skip(n); // the batch holds no vector for it
      return;
    }
    if (columns[i].narrow()) {
      batch.cols[f] = columns[i].read(given, n); // ours, over the arrays of ours the batch holds, if any
      return;
    }
    ColumnVector v = given;
    if (v instanceof dev.travertine.vector.CompactVector) {
      // a reused batch holds the dictionary vector of an earlier batch: decode into Hive's vector it replaced
      v = displaced[i] != null ? displaced[i]
          : org.apache.orc.impl.TypeUtils.createColumn(types[i], TypeDescription.RowBatchVersion.ORIGINAL,
              batch.getMaxSize());
    }
    if (v == displaced[i]) {
      displaced[i] = null; // back in a batch: not free any more
    }
    v.reset(); // as ORC's reader does (a string vector's shared buffer, flags)
    v.ensureSize(n, false);
    ColumnVector out = columns[i].read(v, n);
    if (out != v && v instanceof BytesColumnVector b) {
      displaced[i] = b;
    }
    batch.cols[f] = out;
  }

  /** A stripe's streams being read (as stored), and what each is. */
  private record Fetch(int stripe, List<FileRange> ranges, List<OrcProto.Stream> streams) {}

  /** The next stripe's streams, asked for ahead of their decoding ({@link #fetchNext}), or null. */
  private Fetch ahead;

  /**
   * Starts reading the next stripe's streams, as stored: for a prefetch on another thread, which
   * then holds the stripe's stored bytes only (what a prefetch budget counts); they are
   * decompressed and decoded by the reads that follow, on the reader's thread.
   */
  void fetchNext() throws IOException {
    if (ahead == null && stripe + 1 < stripes.size()) {
      ahead = fetch(stripe + 1);
    }
  }

  /**
   * Waits until the streams {@link #fetchNext} asked for have arrived (or failed: the read that
   * decodes them reports it), so that a prefetch that is done has the stripe's bytes in hand.
   */
  void awaitFetched() {
    if (ahead == null) {
      return;
    }
    for (FileRange r : ahead.ranges()) {
      try {
        r.getData().join();
      } catch (RuntimeException e) {
        return; // thrown again where the stripe is read
      }
    }
  }

  /** Asks for stripe {@code s}'s streams of the columns read, in one vectored read. */
  private Fetch fetch(int s) throws IOException {
    StripeInformation info = stripes.get(s);
    OrcProto.StripeFooter footer = footers.get(s);
    List<FileRange> ranges = new ArrayList<>();
    List<OrcProto.Stream> streams = new ArrayList<>();
    long at = info.getOffset();
    for (OrcProto.Stream st : footer.getStreamsList()) {
      if (st.getLength() > 0 && entry(st.getColumn()) >= 0 && isDataStream(st.getKind())) {
        ranges.add(FileRange.createFileRange(at, (int) st.getLength()));
        streams.add(st);
      }
      at += st.getLength();
    }
    in.readVectored(ranges, ByteBuffer::allocate);
    return new Fetch(s, ranges, streams);
  }

  /** Reads stripe {@code s}'s streams of the columns read and sets up their decoders. */
  private void loadStripe(int s) throws IOException {
    Arrays.fill(columns, null); // the last stripe's streams go before this one's are read
    StripeInformation info = stripes.get(s);
    OrcProto.StripeFooter footer = footers.get(s);
    Fetch f = ahead != null && ahead.stripe() == s ? ahead : fetch(s);
    ahead = null;
    List<FileRange> ranges = f.ranges();
    List<OrcProto.Stream> streams = f.streams();
    Stream[][] data = new Stream[types.length][OrcProto.Stream.Kind.values().length];
    for (int k = 0; k < ranges.size(); k++) {
      ByteBuffer raw;
      try {
        raw = ranges.get(k).getData().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted reading a part's stripe");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause() : e.getCause();
        throw cause instanceof IOException io ? io : new IOException(cause);
      }
      OrcProto.Stream st = streams.get(k);
      data[entry(st.getColumn())][st.getKind().ordinal()] = decompress(raw);
    }
    for (int i = 0; i < types.length; i++) {
      columns[i] = OrcColumnReaders.column(types[i], footer.getColumns(types[i].getId()), data[i], dictionaryStrings,
          narrowIntegers);
    }
    rowsLeft = info.getNumberOfRows();
  }

  private static boolean isDataStream(OrcProto.Stream.Kind k) {
    return switch (k) {
      case PRESENT, DATA, LENGTH, DICTIONARY_DATA, SECONDARY -> true;
      default -> false;
    };
  }

  /**
   * A stream's bytes without ORC's compression chunks (a 3-byte header each: length and whether
   * the chunk is stored as it is).
   */
  private Stream decompress(ByteBuffer raw) throws IOException {
    byte[] a = raw.array();
    int base = raw.arrayOffset() + raw.position();
    int len = raw.remaining();
    LZ4SafeDecompressor lz4 = compression == CompressionKind.LZ4 ? NativeLz4.decompressor() : null;
    if (compression == CompressionKind.NONE) {
      byte[] out = new byte[len + PADDING];
      System.arraycopy(a, base, out, 0, len);
      return new Stream(out, len);
    }
    long bound = 0;
    for (int p = 0; p < len; ) {
      if (p + 3 > len) {
        throw new IOException("ORC stream: a chunk header past the stream's end");
      }
      int h = (a[base + p] & 0xff) | (a[base + p + 1] & 0xff) << 8 | (a[base + p + 2] & 0xff) << 16;
      int chunk = h >>> 1;
      bound += (h & 1) != 0 ? chunk : Math.max(chunk, bufferSize);
      p += 3 + chunk;
    }
    byte[] out = new byte[Math.toIntExact(bound + PADDING)];
    int o = 0;
    for (int p = 0; p < len; ) {
      int h = (a[base + p] & 0xff) | (a[base + p + 1] & 0xff) << 8 | (a[base + p + 2] & 0xff) << 16;
      int chunk = h >>> 1;
      p += 3;
      if (p + chunk > len) {
        throw new IOException("ORC stream: a chunk of " + chunk + " bytes past the stream's end");
      }
      if ((h & 1) != 0) {
        System.arraycopy(a, base + p, out, o, chunk);
        o += chunk;
      } else {
        if (lz4 != null) {
          o += NativeLz4.decompress(lz4, a, base + p, chunk, out, o, out.length - PADDING - o);
          p += chunk;
          continue;
        }
        if (codec == null) {
          codec = OrcCodecPool.getCodec(compression);
        }
        ByteBuffer src = ByteBuffer.wrap(a, base + p, chunk);
        if (compression == CompressionKind.LZ4 || compression == CompressionKind.SNAPPY) {
          // aircompressor's codecs write at the buffer's array offset and position: straight into place
          ByteBuffer dst = ByteBuffer.wrap(out, o, out.length - PADDING - o).slice();
          codec.decompress(src, dst);
          o += dst.limit();
        } else {
          // ORC's zstd and zlib codecs expect a buffer of their own at position 0
          if (chunkBuffer == null) {
            chunkBuffer = ByteBuffer.allocate(bufferSize);
          }
          chunkBuffer.clear();
          codec.decompress(src, chunkBuffer);
          int n = chunkBuffer.limit();
          if (o + n > out.length - PADDING) {
            throw new IOException("ORC stream: a chunk decompresses past the compression buffer size");
          }
          System.arraycopy(chunkBuffer.array(), 0, out, o, n);
          o += n;
        }
      }
      p += chunk;
    }
    return new Stream(out, o);
  }

  @Override
  public void close() throws IOException {
    try {
      in.close();
    } finally {
      if (codec != null) {
        OrcCodecPool.returnCodec(compression, codec);
        codec = null;
      }
    }
  }
}
