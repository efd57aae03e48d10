package dev.travertine.server;

import dev.travertine.calcite.prepare.SqlErrors;
import dev.travertine.formats.BulkLoad;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServletResponse;

/**
 * The HTTP interface's error answer, one for queries and inserts: an HTTP status, the header
 * {@code X-ClickHouse-Exception-Code} and the body {@code Code: N. DB::Exception: message}, the
 * message on one line (a parse error's "Was expecting one of" list is cut, as the shell cuts it).
 */
final class HttpErrors {
  private HttpErrors() {}

  /** An answer with a status and ClickHouse's code, decided before any of the body was sent. */
  static final class HttpError extends Exception {
    final int status;
    final int code;

    HttpError(int status, int code, String message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  /** Answers with a failure of the engine, classified into ClickHouse's code and an HTTP status. */
  static void answer(HttpServletResponse response, Throwable e) throws IOException {
    if (e instanceof HttpError h) {
      answer(response, h.status, h.code, h.getMessage());
      return;
    }
    SqlErrors.Error err = SqlErrors.classify(e);
    answer(response, status(e, err), err.code(), err.message());
  }

  /** The HTTP status of a classified failure: 404 unknown, 403 not allowed, 400 the request's fault, else 500. */
  static int status(Throwable e, SqlErrors.Error err) {
    String state = err.sqlState();
    if ("42S02".equals(state) || err.code() == 81) {
      return 404;
    }
    if (hasCause(e, SecurityException.class) || state.equals("28000") || state.equals("42501")
        || state.equals("25006")) {
      return 403;
    }
    if (e instanceof BulkLoad.BadInputException || state.startsWith("42") || state.startsWith("22")
        || state.startsWith("21") || state.startsWith("23") || state.equals("0A000") || err.code() == 216
        || hasCause(e, IllegalArgumentException.class)) {
      return 400;
    }
    return 500;
  }

  static void answer(HttpServletResponse response, int status, int code, String message) throws IOException {
    response.setStatus(status);
    response.setHeader("X-ClickHouse-Exception-Code", String.valueOf(code));
    response.setContentType("text/plain; charset=UTF-8");
    byte[] b = body(code, message).getBytes(StandardCharsets.UTF_8);
    response.setContentLength(b.length);
    response.getOutputStream().write(b);
  }

  /** {@code Code: N. DB::Exception: message} and a line break; the message's first line only. */
  static String body(int code, String message) {
    String m = message == null ? "" : message.strip();
    int nl = m.indexOf('\n');
    if (nl > 0) {
      m = m.substring(0, nl).strip();
    }
    return "Code: " + code + ". DB::Exception: " + m + "\n";
  }

  private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }
}
