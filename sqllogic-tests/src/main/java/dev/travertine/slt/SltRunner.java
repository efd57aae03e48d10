package dev.travertine.slt;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltTestFile;

/**
 * Runs sqllogictest files on Travertine with a number of worker threads (each file on its own
 * fresh database), printing one progress line per file, and collects the {@link FileResult}s.
 */
public final class SltRunner {
  private final int threads;
  private final String serverUrl;
  private final PrintStream progress;
  private PrintStream verbose;

  /**
   * @param threads   files run at the same time (each on its own database)
   * @param serverUrl a server's JDBC URL, or null to run embedded
   * @param progress  where the progress lines go
   */
  public SltRunner(int threads, String serverUrl, PrintStream progress) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1");
    }
    if (serverUrl != null && threads != 1) {
      throw new IllegalArgumentException("A server holds one database: run it with one thread");
    }
    this.threads = threads;
    this.serverUrl = serverUrl;
    this.progress = progress;
  }

  /** Prints the first failures of each file in full (query and message) to {@code out}. */
  public SltRunner verbose(PrintStream out) {
    this.verbose = out;
    return this;
  }

  public List<FileResult> run(List<String> files) throws InterruptedException {
    return run(files, f -> 1);
  }

  /** Runs the files; {@code sampling} says for each file to run every n-th query only (1: all). */
  public List<FileResult> run(List<String> files, java.util.function.ToIntFunction<String> sampling)
      throws InterruptedException {
    ConcurrentLinkedQueue<String> todo = new ConcurrentLinkedQueue<>(files);
    ConcurrentLinkedQueue<FileResult> done = new ConcurrentLinkedQueue<>();
    AtomicInteger count = new AtomicInteger();
    long t0 = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "slt-worker");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        workers.add(pool.submit(() -> {
          for (String f; (f = todo.poll()) != null; ) {
            FileResult r = runFile(f, sampling.applyAsInt(f));
            done.add(r);
            int n = count.incrementAndGet();
            synchronized (progress) {
              progress.printf(Locale.ROOT, "[%d/%d %s] %s: %,d queries, %,d failed%s, %.1f s (%.1f ms/query)%n", n,
                  files.size(), elapsed(t0), f, r.queries(), r.failed(),
                  r.aborted() == null ? "" : " (stopped: " + r.aborted() + ")", r.millis() / 1000.0,
                  r.queries() == 0 ? 0.0 : (double) r.millis() / r.queries());
            }
          }
          return null;
        }));
      }
      for (Future<?> w : workers) {
        try {
          w.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException("A worker failed", e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    List<FileResult> out = new ArrayList<>(done);
    out.sort(Comparator.comparing(FileResult::file));
    return out;
  }

  private static String elapsed(long t0) {
    long s = (System.nanoTime() - t0) / 1_000_000_000L;
    return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  /** One file; problems of the harness itself (an unparsable file, a lost connection) become its result. */
  FileResult runFile(String file, int sampleEvery) {
    // The library's parser prints notes about skipped lines: keep them out of the progress.
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    OptionsParser parser = new OptionsParser(false, quiet, quiet);
    OptionsParser.SuppliedOptions options = parser.getOptions();
    long t0 = System.nanoTime();
    SltTestFile test;
    try {
      test = TravertineSltExecutor.load(file, options);
    } catch (Exception | AssertionError e) {
      return harnessFailure(file, "file not parsed: " + e, t0);
    }
    TravertineSltExecutor executor = serverUrl == null ? TravertineSltExecutor.embedded(options)
        : TravertineSltExecutor.remote(options, serverUrl);
    try {
      return executor.run(file, test, sampleEvery, verbose);
    } catch (Exception e) {
      return harnessFailure(file, "harness: " + e, t0);
    }
  }

  private static FileResult harnessFailure(String file, String why, long t0) {
    FileResult.Builder b = new FileResult.Builder(file);
    b.aborted = why;
    return b.build((System.nanoTime() - t0) / 1_000_000);
  }

  // ---- results files ----

  /** Writes results with a header saying when and how they were made. */
  public static void write(Path p, List<FileResult> results, String command) throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("# Travertine sqllogictest results\n")
        .append("# date: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append('\n')
        .append("# command: ").append(command).append('\n')
        .append("# machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
        .append(System.getProperty("java.version")).append('\n')
        .append(FileResult.TSV_HEADER).append('\n');
    for (FileResult r : results) {
      b.append(r.toTsv()).append('\n');
    }
    if (p.getParent() != null) {
      Files.createDirectories(p.getParent());
    }
    Files.writeString(p, b.toString(), StandardCharsets.UTF_8);
  }

  /** The results of one results file, and its date. */
  public record ResultsFile(Path path, String date, String command, List<FileResult> results) {}

  public static ResultsFile read(Path p) throws IOException {
    String date = "";
    String command = "";
    List<FileResult> out = new ArrayList<>();
    for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
      if (line.startsWith("# date: ")) {
        date = line.substring(8).strip();
      } else if (line.startsWith("# command: ")) {
        command = line.substring(11).strip();
      } else if (!line.startsWith("#") && !line.startsWith("file\t") && !line.isBlank()) {
        out.add(FileResult.parseTsv(line));
      }
    }
    return new ResultsFile(p, date, command, out);
  }
}
