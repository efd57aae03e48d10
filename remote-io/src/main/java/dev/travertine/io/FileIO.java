package dev.travertine.io;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * Storage behind a table or a data directory: positional reads, atomic object writes, listing
 * and deletion, addressed by '/'-separated paths relative to the storage root.
 *
 * <p>The contract is the one object stores can keep: an object becomes visible whole or not at
 * all, and objects are never modified in place. Reading a missing object throws
 * {@link java.io.FileNotFoundException} (or {@link java.nio.file.NoSuchFileException} locally). Local disk, S3 and HDFS implement it; nothing
 * here knows about tables or parts.
 */
public interface FileIO extends Closeable {

  /** Opens an existing object for positional reads. */
  InputFile newInputFile(String path);

  /** Opens an existing object whose length is known (saves a metadata request on object stores). */
  default InputFile newInputFile(String path, long length) {
    return newInputFile(path);
  }

  /** Whether requests cost a network round trip (reads are then coalesced more aggressively). */
  default boolean remote() {
    return false;
  }

  /** Prepares a new object; it becomes visible atomically when its stream is closed. */
  OutputFile newOutputFile(String path);

  /** Writes a whole object, replacing any previous one; readers see the old or the new bytes. */
  void writeAtomic(String path, byte[] data) throws IOException;

  /**
   * Writes a whole object only if none exists at that path.
   *
   * @return false if the object already existed (and was left untouched)
   */
  boolean writeIfAbsent(String path, byte[] data) throws IOException;

  /** Reads a whole object. */
  default byte[] readAll(String path) throws IOException {
    return newInputFile(path).readAll();
  }

  /** Whether an object exists at the path. */
  boolean exists(String path) throws IOException;

  /** Lists the objects whose path starts with {@code prefix + "/"}, recursively, sorted by path. */
  List<FileInfo> list(String prefix) throws IOException;

  /** Deletes one object; returns false if it did not exist. */
  boolean delete(String path) throws IOException;

  /** Deletes every object under {@code prefix + "/"}. */
  void deletePrefix(String prefix) throws IOException;

  /** A human-readable location of the storage root, for messages. */
  String location();

  @Override
  default void close() throws IOException {}
}
