package dev.travertine.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.servlet.ReadListener;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;

/**
 * A request whose body has been read already (to see which serialization it speaks), served
 * again from memory to the Avatica handler that takes it.
 */
final class BufferedBodyRequest extends HttpServletRequestWrapper {
  private final byte[] body;

  BufferedBodyRequest(HttpServletRequest request, byte[] body) {
    super(request);
    this.body = body;
  }

  /** Whether the body is an Avatica JSON request (a JSON object) rather than a protobuf WireMessage. */
  static boolean isJson(byte[] body) {
    for (byte b : body) {
      if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
        continue;
      }
      return b == '{';
    }
    return false;
  }

  /**
   * Whether the body is an Avatica protobuf request: a WireMessage, whose first field is the
   * request's class name ({@code org.apache.calcite.avatica.proto.Requests$…}).
   */
  static boolean isProtobuf(byte[] body) {
    byte[] marker = "org.apache.calcite.avatica.proto".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    int end = Math.min(body.length, 8 + marker.length);
    outer:
    for (int i = 0; i + marker.length <= end; i++) {
      for (int j = 0; j < marker.length; j++) {
        if (body[i + j] != marker[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Override public ServletInputStream getInputStream() {
    ByteArrayInputStream in = new ByteArrayInputStream(body);
    return new ServletInputStream() {
      @Override public boolean isFinished() {
        return in.available() == 0;
      }

      @Override public boolean isReady() {
        return true;
      }

      @Override public void setReadListener(ReadListener listener) {
        try {
          listener.onDataAvailable();
          listener.onAllDataRead();
        } catch (IOException e) {
          listener.onError(e);
        }
      }

      @Override public int read() {
        return in.read();
      }

      @Override public int read(byte[] b, int off, int len) {
        return in.read(b, off, len);
      }
    };
  }

  @Override public int getContentLength() {
    return body.length;
  }

  @Override public long getContentLengthLong() {
    return body.length;
  }
}
