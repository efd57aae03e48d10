package dev.travertine.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a {@code main} class in a JVM of its own, on this JVM's classpath: the one way tests and
 * benchmarks start separate processes (servers, replicas, a writer to be killed). Its output and
 * errors are merged, into the process's stream or appended to a log file. Other modules use it
 * through remote-io's test jar.
 */
public final class ChildJvm {
  private final String main;
  private final List<String> jvmOptions = new ArrayList<>();
  private final List<String> args = new ArrayList<>();
  private String maxHeap = "512m";
  private Path log;

  private ChildJvm(String main) {
    this.main = main;
  }

  /** A JVM that runs {@code main}. */
  public static ChildJvm of(Class<?> main) {
    return new ChildJvm(main.getName());
  }

  /** A JVM that runs the class named {@code main} (one this module cannot name at compile time). */
  public static ChildJvm of(String main) {
    return new ChildJvm(main);
  }

  /** The maximum heap, as {@code -Xmx} takes it (512m unless set). */
  public ChildJvm maxHeap(String maxHeap) {
    this.maxHeap = maxHeap;
    return this;
  }

  /** Options for the JVM, before the main class. */
  public ChildJvm jvmOptions(List<String> options) {
    jvmOptions.addAll(options);
    return this;
  }

  /** Options for the JVM, before the main class. */
  public ChildJvm jvmOptions(String... options) {
    return jvmOptions(List.of(options));
  }

  /** Arguments for {@code main}. */
  public ChildJvm args(List<String> arguments) {
    args.addAll(arguments);
    return this;
  }

  /** Arguments for {@code main}. */
  public ChildJvm args(String... arguments) {
    return args(List.of(arguments));
  }

  /** Appends the process's output to {@code log} instead of handing it to the caller's stream. */
  public ChildJvm appendOutputTo(Path log) {
    this.log = log;
    return this;
  }

  /** The command line it runs. */
  public List<String> command() {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + maxHeap);
    cmd.addAll(jvmOptions);
    // ORC's generated protobuf classes warn once per message type without it
    cmd.add("-Dcom.google.protobuf.use_unsafe_pre22_gencode=true");
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main));
    cmd.addAll(args);
    return cmd;
  }

  /** Starts it: output and errors merged, in {@link Process#getInputStream()} unless appended to a log. */
  public Process start() throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command()).redirectErrorStream(true);
    if (log != null) {
      pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }
    return pb.start();
  }
}
