package dev.travertine.bench;

import dev.travertine.io.ChildJvm;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;

/** A real {@code travertine server} process on a loopback port, for the harnesses that talk to a server. */
final class ServerProcess implements AutoCloseable {
  private final Process process;
  private final int port;

  private ServerProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts a server on a fresh data directory {@code dir}, its output in {@code log}; waits until it answers. */
  static ServerProcess start(Path dir, int threads, Path log) throws Exception {
    HitsEngine.deleteAll(dir);
    return restart(dir, threads, log, false);
  }

  /**
   * Starts a server on a fresh data directory as {@code bin/travertine server} does, its whole heap
   * committed and touched first (what a speed comparison wants; harnesses that restart servers
   * often do without).
   */
  static ServerProcess startTouched(Path dir, int threads, Path log) throws Exception {
    HitsEngine.deleteAll(dir);
    return restart(dir, threads, log, true);
  }

  /** Starts a server on {@code dir} as it is (after a crash, say); waits until it answers. */
  static ServerProcess restart(Path dir, int threads, Path log) throws Exception {
    return restart(dir, threads, log, false);
  }

  private static ServerProcess restart(Path dir, int threads, Path log, boolean touchHeap) throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    ChildJvm jvm = ChildJvm.of("dev.travertine.server.TravertineCli").maxHeap("8g");
    if (touchHeap) { // as bin/travertine starts a server: its whole heap committed and touched before it serves
      jvm.jvmOptions("-Xms8g", "-XX:+AlwaysPreTouch");
    }
    Process p = jvm.jvmOptions(collectorOptions())
        .args("server", "--data", dir.toString(), "--port", String.valueOf(port), "--host", "127.0.0.1")
        .appendOutputTo(log).start();
    ServerProcess sp = new ServerProcess(p, port);
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      try {
        var r = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(sp.base() + "health")).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          break;
        }
      } catch (java.io.IOException e) {
        // not up yet
      }
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new IllegalStateException("The server did not start; see " + log);
      }
      Thread.sleep(200);
    }
    try (Connection c = sp.connect()) {
      BenchSql.exec(c, "SET max_threads = " + threads);
    }
    return sp;
  }

  /**
   * This JVM's collector and memory options (bench/run's young generation, region size, huge pages, preventive
   * collections off, a collector named in JAVA_OPTS): the server runs with what the embedded side of a comparison
   * runs with.
   */
  static List<String> collectorOptions() {
    List<String> out = new ArrayList<>();
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("-XX:") && (a.contains("GC") || a.contains("NewSize") || a.contains("G1") || a.contains("TransparentHugePages")
          || a.contains("UnlockDiagnosticVMOptions"))) {
        out.add(a);
      }
    }
    return out;
  }

  String base() {
    return "http://127.0.0.1:" + port + "/";
  }

  Connection connect() throws java.sql.SQLException {
    return DriverManager.getConnection("jdbc:avatica:remote:url=" + base() + ";serialization=protobuf");
  }

  /** SIGKILL: the process ends at once, nothing flushed or closed. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** CPU time of the server process so far (every thread, GC included), in seconds; NaN where the OS does not tell. */
  double cpuSeconds() {
    return process.toHandle().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
  }

  /** Whether the process is still running. */
  boolean alive() {
    return process.isAlive();
  }

  @Override public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
