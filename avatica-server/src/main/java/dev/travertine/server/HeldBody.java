package dev.travertine.server;

import java.io.IOException;
import java.io.OutputStream;
import javax.servlet.http.HttpServletResponse;

/**
 * A response body held back until it passes {@code limit} bytes or ends, so that headers known
 * only at the end (the {@code X-ClickHouse-Summary} of rows read) still go out with an answer that
 * ends within the limit; a longer answer streams on after its headers, with the figures of that
 * moment. {@code beforeHeaders} runs once, just before the headers are sent.
 */
final class HeldBody extends OutputStream {
  private final HttpServletResponse response;
  private final Runnable beforeHeaders;
  private byte[] held;
  private int n;
  private OutputStream raw;

  HeldBody(HttpServletResponse response, int limit, Runnable beforeHeaders) {
    this.response = response;
    this.beforeHeaders = beforeHeaders;
    this.held = new byte[limit];
  }

  @Override public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override public void write(byte[] b, int off, int len) throws IOException {
    if (raw == null && n + len <= held.length) {
      System.arraycopy(b, off, held, n, len);
      n += len;
      return;
    }
    if (raw == null) {
      release(false);
    }
    raw.write(b, off, len);
  }

  /** Whether the headers are out (an error can no longer change the status). */
  boolean released() {
    return raw != null;
  }

  private void release(boolean whole) throws IOException {
    beforeHeaders.run();
    if (whole) {
      response.setContentLength(n);
    }
    raw = response.getOutputStream();
    raw.write(held, 0, n);
    held = null;
  }

  @Override public void flush() throws IOException {
    if (raw != null) {
      raw.flush();
    }
  }

  @Override public void close() throws IOException {
    if (raw == null) {
      release(true);
    }
    raw.close();
  }
}
