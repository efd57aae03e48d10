package dev.travertine.io;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A new object being written. Bytes written to {@link #create()}'s stream become visible at the
 * path, whole and durable, only when the stream is closed successfully; {@link
 * AbortableOutputStream#abort()} discards them.
 */
public interface OutputFile {

  String path();

  AbortableOutputStream create() throws IOException;

  /** An output stream that can be abandoned without publishing anything. */
  abstract class AbortableOutputStream extends OutputStream {
    /** Discards everything written; the object does not appear. Idempotent. */
    public abstract void abort();

    /** Bytes written so far. */
    public abstract long position();
  }
}
