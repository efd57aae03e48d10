package dev.travertine.mergetree.mutation;

import dev.travertine.mergetree.schema.TableSchema;

/**
 * A table's live view of one mutation: its committed record, its compiled form (made on first
 * use and kept), and the latest failure of the worker that applies it (system.mutations).
 */
public final class MutationEntry {
  private final MutationRecord record;
  private final Shared shared;

  /** What all versions of an entry (e.g. before and after KILL) share. */
  private static final class Shared {
    volatile CompiledMutation compiled;
    volatile String failReason;
    volatile String failedPart;
    volatile long failTime;
  }

  public MutationEntry(MutationRecord record, CompiledMutation compiled) {
    this.record = record;
    this.shared = new Shared();
    shared.compiled = compiled;
  }

  private MutationEntry(MutationRecord record, Shared shared) {
    this.record = record;
    this.shared = shared;
  }

  public MutationRecord record() {
    return record;
  }

  public long block() {
    return record.block();
  }

  public boolean killed() {
    return record.killed();
  }

  /**
   * Whether this mutation still applies to data of {@code dataVersion}: the one rule of which
   * rows a mutation touches (not killed, and newer than the data).
   */
  public boolean appliesTo(long dataVersion) {
    return !killed() && block() > dataVersion;
  }

  public MutationEntry asKilled() {
    return new MutationEntry(record.asKilled(), shared);
  }

  /** The compiled mutation, compiling it the first time (e.g. after a restart). */
  public CompiledMutation compiled(MutationCompiler compiler, TableSchema schema) {
    CompiledMutation c = shared.compiled;
    if (c == null) {
      synchronized (shared) {
        c = shared.compiled;
        if (c == null) {
          c = compiler.compile(schema, record.command());
          shared.compiled = c;
        }
      }
    }
    return c;
  }

  public void failed(String part, String reason, long time) {
    shared.failedPart = part;
    shared.failReason = reason;
    shared.failTime = time;
  }

  public void succeeded() {
    shared.failReason = null;
    shared.failedPart = null;
    shared.failTime = 0;
  }

  public String failReason() {
    return shared.failReason;
  }

  public String failedPart() {
    return shared.failedPart;
  }

  public long failTime() {
    return shared.failTime;
  }
}
