package dev.travertine.mergetree.part;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The metadata record of one immutable part, as committed in the table's metadata log:
 * ClickHouse's part name {@code <partition>_<minBlock>_<maxBlock>_<level>[_<dataVersion>]},
 * row count, size, CRC32 of the file, and per-column {min, max, nullCount} (text, see
 * {@link ValueCodec}) for pruning without opening the file.
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
    Map<String, List<String>> columnStats) {

  @JsonCreator
  public PartInfo(@JsonProperty("name") String name, @JsonProperty("partitionId") String partitionId,
      @JsonProperty("minBlock") long minBlock, @JsonProperty("maxBlock") long maxBlock,
      @JsonProperty("level") int level, @JsonProperty("dataVersion") long dataVersion,
      @JsonProperty("rows") long rows, @JsonProperty("bytesOnDisk") long bytesOnDisk,
      @JsonProperty("checksum") String checksum, @JsonProperty("modificationTime") long modificationTime,
      @JsonProperty("granules") int granules,
      @JsonProperty("columnStats") Map<String, List<String>> columnStats) {
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
  }

  /** ClickHouse's part name. */
  public static String partName(String partitionId, long minBlock, long maxBlock, int level, long dataVersion) {
    String base = partitionId + "_" + minBlock + "_" + maxBlock + "_" + level;
    return dataVersion > 0 && dataVersion != minBlock ? base + "_" + dataVersion : base;
  }

  /** The file of this part, relative to the table's storage root. */
  public String path() {
    return "parts/" + name + ".orc";
  }
}
