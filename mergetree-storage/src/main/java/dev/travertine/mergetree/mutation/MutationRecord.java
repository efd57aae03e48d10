package dev.travertine.mergetree.mutation;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A mutation as committed in the table's metadata log: its id (ClickHouse's
 * {@code mutation_<block>.txt}), the block number that orders it against inserts (parts whose data
 * version is smaller still need it), when it was created, the command, and whether it was killed.
 */
public record MutationRecord(String id, long block, long createTime, MutationCommand command, boolean killed) {
  @JsonCreator
  public MutationRecord(@JsonProperty("id") String id, @JsonProperty("block") long block,
      @JsonProperty("createTime") long createTime, @JsonProperty("command") MutationCommand command,
      @JsonProperty("killed") boolean killed) {
    this.id = id;
    this.block = block;
    this.createTime = createTime;
    this.command = command;
    this.killed = killed;
  }

  public static String idFor(long block) {
    return "mutation_" + block + ".txt";
  }

  public MutationRecord asKilled() {
    return new MutationRecord(id, block, createTime, command, true);
  }
}
