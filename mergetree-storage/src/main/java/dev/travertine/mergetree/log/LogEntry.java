package dev.travertine.mergetree.log;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.mergetree.mutation.MutationRecord;
import dev.travertine.mergetree.part.PartInfo;
import java.util.List;

/**
 * One committed change of a table's active part set: parts added and removed, the write-ahead-log
 * position now covered by parts, and the next free block number. {@code truncate} drops every
 * part first. {@code mutations} are mutation records created or changed (killed) by this entry. A
 * checkpoint entry lists the whole active set and every mutation kept ({@code checkpoint} = true).
 */
public record LogEntry(long seq, long time, String op, List<PartInfo> add, List<String> remove,
    long walFlushedUpTo, long nextBlock, boolean truncate, boolean checkpoint, List<MutationRecord> mutations) {
  @JsonCreator
  public LogEntry(@JsonProperty("seq") long seq, @JsonProperty("time") long time, @JsonProperty("op") String op,
      @JsonProperty("add") List<PartInfo> add, @JsonProperty("remove") List<String> remove,
      @JsonProperty("walFlushedUpTo") long walFlushedUpTo, @JsonProperty("nextBlock") long nextBlock,
      @JsonProperty("truncate") boolean truncate, @JsonProperty("checkpoint") boolean checkpoint,
      @JsonProperty("mutations") List<MutationRecord> mutations) {
    this.seq = seq;
    this.time = time;
    this.op = op;
    this.add = add == null ? List.of() : List.copyOf(add);
    this.remove = remove == null ? List.of() : List.copyOf(remove);
    this.walFlushedUpTo = walFlushedUpTo;
    this.nextBlock = nextBlock;
    this.truncate = truncate;
    this.checkpoint = checkpoint;
    this.mutations = mutations == null ? List.of() : List.copyOf(mutations);
  }
}
