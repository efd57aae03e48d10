package dev.travertine.mergetree;

/** A change to a table this node only reads (attached from another node's storage). */
public final class ReadOnlyTableException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public ReadOnlyTableException(String message) {
    super(message);
  }
}
