package dev.travertine.mergetree.part;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The metadata record of one immutable part, as committed in the table's metadata log:
 * ClickHouse's part name {@code <partition>_<minBlock>_<maxBlock>_<level>[_<dataVersion>]},
 * row count, size, CRC32 of the file, its file (see {@link #path()}), and per-column {min, max, nullCount} (text, see
 * {@link ValueCodec}) for pruning without opening the file, the file's logical ORC schema, and the
 * part format its file is written in ({@code dev.travertine.mergetree.schema.OrcTypes}: 1 or 2).
 */
public record PartInfo(
    String name,
    String partitionId,
    long minBlock,
    long maxBlock,
    int level,
    long dataVersion,
    long rows,
    long bytesOnDisk,
    String checksum,
    long modificationTime,
    int granules,
    Map<String, List<String>> columnStats,
    String file,
    String fileSchema,
    int format) {

  @JsonCreator
  public PartInfo(@JsonProperty("name") String name, @JsonProperty("partitionId") String partitionId,
      @JsonProperty("minBlock") long minBlock, @JsonProperty("maxBlock") long maxBlock,
      @JsonProperty("level") int level, @JsonProperty("dataVersion") long dataVersion,
      @JsonProperty("rows") long rows, @JsonProperty("bytesOnDisk") long bytesOnDisk,
      @JsonProperty("checksum") String checksum, @JsonProperty("modificationTime") long modificationTime,
      @JsonProperty("granules") int granules,
      @JsonProperty("columnStats") Map<String, List<String>> columnStats,
      @JsonProperty("file") String file, @JsonProperty("fileSchema") String fileSchema,
      @JsonProperty("format") int format) {
    this.name = name;
    this.partitionId = partitionId;
    this.minBlock = minBlock;
    this.maxBlock = maxBlock;
    this.level = level;
    this.dataVersion = dataVersion;
    this.rows = rows;
    this.bytesOnDisk = bytesOnDisk;
    this.checksum = checksum;
    this.modificationTime = modificationTime;
    this.granules = granules;
    this.columnStats = columnStats == null ? Map.of() : columnStats;
    this.file = file == null ? "parts/" + name + ".orc" : file;
    this.fileSchema = fileSchema;
    this.format = format <= 0 ? 1 : format; // records from before formats were numbered: 1
  }

  /**
   * The data version: mutations with a larger block number still apply to this part's rows.
   * A part no mutation has touched has version {@code minBlock} (its dataVersion is 0).
   */
  public long version() {
    return dataVersion > 0 ? dataVersion : minBlock;
  }

  /**
   * The same data under a new data version (a mutation that does not touch the part): a new
   * name, the same file.
   */
  public PartInfo withDataVersion(long newVersion) {
    return new PartInfo(partName(partitionId, minBlock, maxBlock, level, newVersion), partitionId, minBlock,
        maxBlock, level, newVersion, rows, bytesOnDisk, checksum, modificationTime, granules, columnStats, file,
        fileSchema, format);
  }

  /**
   * Whether both parts hold rows of the same partition from a common block: two active parts
   * never do (every merge takes neighbours and replaces them), the invariant that lets a block
   * range name its data.
   */
  public boolean overlaps(PartInfo other) {
    return partitionId.equals(other.partitionId) && minBlock <= other.maxBlock && other.minBlock <= maxBlock;
  }

  /** ClickHouse's part name. */
  public static String partName(String partitionId, long minBlock, long maxBlock, int level, long dataVersion) {
    String base = partitionId + "_" + minBlock + "_" + maxBlock + "_" + level;
    return dataVersion > 0 && dataVersion != minBlock ? base + "_" + dataVersion : base;
  }

  /**
   * The file of this part, relative to the table's storage root: {@code parts/<name>.orc} when
   * written, kept when the part is re-versioned (so several names in the history may share it,
   * never two active parts).
   */
  public String path() {
    return file;
  }
}
