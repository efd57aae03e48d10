package dev.travertine.io;

import java.io.IOException;

/** An immutable object that can be read at any position; implementations are thread-safe. */
public interface InputFile {

  String path();

  long length() throws IOException;

  /** Opens a reader that keeps its underlying handle until closed. */
  RandomAccessInput open() throws IOException;

  /** Reads the whole object. */
  default byte[] readAll() throws IOException {
    try (RandomAccessInput in = open()) {
      long len = in.length();
      if (len > Integer.MAX_VALUE - 16) {
        throw new IOException("Cannot read " + path() + " whole: " + len + " bytes");
      }
      byte[] data = new byte[(int) len];
      in.readFully(0, data, 0, data.length);
      return data;
    }
  }
}
