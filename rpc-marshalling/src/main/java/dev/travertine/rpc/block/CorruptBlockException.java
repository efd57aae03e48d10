package dev.travertine.rpc.block;

/** A marshalled block that cannot be read: truncated, damaged, or not a block at all. */
public final class CorruptBlockException extends RuntimeException {
  public CorruptBlockException(String message) {
    super(message);
  }
}
