package dev.travertine.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The HTTP interface's named sessions ({@code session_id}): one engine connection each, so a SET
 * lasts across the requests of a session, closed after {@code session_timeout} seconds without a
 * request (default 60, at most 3600). One request at a time per session: a second one meanwhile
 * is refused (ClickHouse's SESSION_IS_LOCKED). A session belongs to the user who opened it.
 */
final class HttpSessions {
  static final long DEFAULT_TIMEOUT_SECONDS = 60;
  static final long MAX_TIMEOUT_SECONDS = 3600;

  /** One session: its owner, its connection, the lock a request holds, and when it expires (0: in use, never idle yet). */
  private static final class Session {
    final String user;
    final Connection connection;
    final ReentrantLock lock = new ReentrantLock();
    volatile long expiresAtNanos;
    volatile long timeoutNanos;

    Session(String user, Connection connection) {
      this.user = user;
      this.connection = connection;
    }
  }

  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final LongSupplier nanoTime;

  HttpSessions(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** A session held for one request; {@link #release} ends the hold. */
  interface Lease {
    Connection connection();

    void release();
  }

  Lease acquire(String id, String timeoutParam, HttpInsert.Sessions open) throws HttpErrors.HttpError, SQLException {
    long timeout = DEFAULT_TIMEOUT_SECONDS;
    if (timeoutParam != null && !timeoutParam.isEmpty()) {
      try {
        timeout = Long.parseLong(timeoutParam);
      } catch (NumberFormatException e) {
        throw new HttpErrors.HttpError(400, 72, "Invalid session_timeout: '" + timeoutParam + "' (seconds)");
      }
      if (timeout <= 0 || timeout > MAX_TIMEOUT_SECONDS) {
        throw new HttpErrors.HttpError(400, 72, "session_timeout must be 1 to " + MAX_TIMEOUT_SECONDS + " seconds");
      }
    }
    expire();
    String user = String.valueOf(TravertineServer.REMOTE_USER.get());
    Session s = sessions.get(id);
    if (s == null) {
      Session fresh = new Session(user, open.open(new Properties()));
      s = sessions.putIfAbsent(id, fresh);
      if (s == null) {
        s = fresh;
      } else {
        fresh.connection.close();
      }
    }
    if (!s.user.equals(user)) {
      throw new HttpErrors.HttpError(403, 373, "Session " + id + " belongs to another user");
    }
    if (!s.lock.tryLock()) {
      throw new HttpErrors.HttpError(409, 373, "Session " + id + " is locked by a concurrent request");
    }
    Session held = s;
    held.timeoutNanos = timeout * 1_000_000_000L;
    return new Lease() {
      @Override public Connection connection() {
        return held.connection;
      }

      @Override public void release() {
        held.expiresAtNanos = nanoTime.getAsLong() + held.timeoutNanos;
        held.lock.unlock();
      }
    };
  }

  /** Closes the sessions whose time is up (those in use are not). */
  void expire() {
    long now = nanoTime.getAsLong();
    sessions.forEach((id, s) -> {
      if (s.expiresAtNanos != 0 && now - s.expiresAtNanos > 0 && s.lock.tryLock()) {
        try {
          if (sessions.remove(id, s)) {
            s.connection.close();
          }
        } catch (SQLException ignored) {
          // closing an idle session
        } finally {
          s.lock.unlock();
        }
      }
    });
  }

  /** Closes every session (the server stops). */
  void closeAll() {
    sessions.forEach((id, s) -> {
      try {
        s.connection.close();
      } catch (SQLException ignored) {
        // stopping
      }
    });
    sessions.clear();
  }
}
