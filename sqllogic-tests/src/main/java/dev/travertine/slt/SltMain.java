package dev.travertine.slt;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sqllogictest command (scripts/slt.sh):
 *
 * <pre>
 *   slt [--all | --ci | --shard K/N | FILE-OR-PREFIX…] [--threads N] [--server JDBC-URL] [--sample N]
 *       [--results FILE.tsv] [--failures FILE] [--update-failures]
 *   slt --report DIR [--out FILE.md]
 * </pre>
 *
 * Runs the chosen corpus files, prints progress and a summary, writes the results (shards go to
 * {@code docs/sqllogictest/results/shard-K-of-N.tsv} unless {@code --results} says otherwise),
 * and compares them with the failure list: exit status 1 when a file fails more queries than
 * listed ({@code -v} prints each file's first failures in full; {@code --sample N} runs every N-th query of each file: a sampled file may fail at most
 * its listed count too, and is never told to lower it). {@code --report} aggregates results
 * files into markdown.
 */
public final class SltMain {
  private SltMain() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out));
  }

  static int run(String[] args, PrintStream out) throws Exception {
    try {
      return runChecked(args, out);
    } catch (BadArgument e) {
      out.println("slt: " + e.getMessage() + " (--help lists the options)");
      return 2;
    }
  }

  /** A command-line mistake: reported in one line, exit status 2. */
  private static final class BadArgument extends IllegalArgumentException {
    BadArgument(String message) {
      super(message);
    }
  }

  private static int runChecked(String[] args, PrintStream out) throws Exception {
    List<String> patterns = new ArrayList<>();
    String selection = null;
    int[] shard = null;
    int threads = 1;
    String server = null;
    Path results = null;
    Path failures = Path.of(FailureList.PATH);
    boolean update = false;
    Path report = null;
    Path reportOut = null;
    int sample = 1;
    boolean verbose = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--all" -> selection = "all";
        case "--ci" -> selection = "ci";
        case "--shard" -> {
          selection = "shard";
          shard = shard(value(args, ++i, a));
        }
        case "--threads" -> threads = atLeastOne(args, ++i, a);
        case "--server" -> server = value(args, ++i, a);
        case "--sample" -> sample = atLeastOne(args, ++i, a);
        case "--results" -> results = Path.of(value(args, ++i, a));
        case "--failures" -> failures = Path.of(value(args, ++i, a));
        case "--update-failures" -> update = true;
        case "-v", "--verbose" -> verbose = true;
        case "--report" -> report = Path.of(value(args, ++i, a));
        case "--out" -> reportOut = Path.of(value(args, ++i, a));
        case "-h", "--help" -> {
          out.println("usage: slt [--all | --ci | --shard K/N | FILE-OR-PREFIX...] [--threads N] [--server JDBC-URL] [--sample N] [-v]\n"
              + "           [--results FILE.tsv] [--failures FILE] [--update-failures]\n"
              + "       slt --report DIR [--out FILE.md]");
          return 0;
        }
        default -> {
          if (a.startsWith("-")) {
            throw new BadArgument("unknown option " + a);
          }
          patterns.add(a);
        }
      }
    }
    if (report != null) {
      String md = SltReport.markdown(report);
      if (reportOut == null) {
        out.print(md);
      } else {
        Files.writeString(reportOut, md);
        out.println("wrote " + reportOut);
      }
      return 0;
    }
    List<String> files;
    String name;
    if ("all".equals(selection)) {
      files = Corpus.files();
      name = "all";
    } else if ("ci".equals(selection)) {
      files = Corpus.ciSubset();
      name = "ci";
    } else if (shard != null) {
      int k = shard[0];
      int n = shard[1];
      files = Corpus.shard(k, n);
      name = String.format(Locale.ROOT, "shard-%02d-of-%02d", k, n);
      if (results == null) {
        results = Path.of("docs/sqllogictest/results/" + name + ".tsv");
      }
    } else if (!patterns.isEmpty()) {
      files = Corpus.matching(patterns);
      name = String.join(" ", patterns);
    } else {
      out.println("slt: say which files: --all, --ci, --shard K/N or file names (--help)");
      return 2;
    }
    if (files.isEmpty()) {
      out.println("slt: no corpus file matches " + patterns);
      return 2;
    }
    out.printf(Locale.ROOT, "Running %d sqllogictest files (%s) with %d thread(s)%s%n", files.size(), name, threads,
        server == null ? ", embedded" : " on " + server);
    long t0 = System.nanoTime();
    int every = sample;
    java.util.function.ToIntFunction<String> sampling = "ci".equals(selection) ? Corpus::ciSampling : f -> every;
    SltRunner runner = new SltRunner(threads, server, out);
    if (verbose) {
      runner.verbose(out);
    }
    List<FileResult> res = runner.run(files, sampling);
    double secs = (System.nanoTime() - t0) / 1e9;
    summary(res, secs, out);
    if (results != null) {
      SltRunner.write(results, res, "scripts/slt.sh " + String.join(" ", args));
      out.println("results written to " + results);
    }
    FailureList list = FailureList.read(failures);
    boolean sampled = res.stream().anyMatch(r -> sampling.applyAsInt(r.file()) > 1);
    if (update && sampled) {
      out.println("slt: a sampled run cannot update the failure list (it counts full files)");
      return 2;
    }
    if (update) {
      list.update(res);
      list.write(failures);
      out.println("failure list " + failures + " updated for " + res.size() + " files");
      return 0;
    }
    list.improvements(res.stream().filter(r -> sampling.applyAsInt(r.file()) == 1).toList())
        .forEach(l -> out.println("better: " + l));
    List<String> regressions = list.regressions(res);
    regressions.forEach(l -> out.println("REGRESSION: " + l));
    return regressions.isEmpty() ? 0 : 1;
  }

  static void summary(List<FileResult> res, double secs, PrintStream out) {
    long q = 0;
    long p = 0;
    int aborted = 0;
    long missed = 0;
    for (FileResult r : res) {
      q += r.queries();
      p += r.passed();
      missed += r.statementErrorsMissed();
      aborted += r.aborted() == null ? 0 : 1;
    }
    out.printf(Locale.ROOT, "%d files, %,d queries: %,d passed (%s %%), %,d failed; %d files stopped by a failing "
            + "statement; %,d statements that should have failed did not.%n", res.size(), q, p,
        FileResult.passPercent(p, q), q - p, aborted, missed);
    out.printf(Locale.ROOT, "%.1f s wall; median query %.1f ms (prepare + execute + check)%n", secs,
        FileResult.medianMs(res));
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new BadArgument(option + " needs a value");
    }
    return args[i];
  }

  private static int atLeastOne(String[] args, int i, String option) {
    String v = value(args, i, option);
    try {
      int n = Integer.parseInt(v);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadArgument(option + " needs a whole number of at least 1, not " + v);
  }

  /** K/N with 1 <= K <= N. */
  private static int[] shard(String v) {
    String[] kn = v.split("/", -1);
    try {
      if (kn.length == 2) {
        int k = Integer.parseInt(kn[0]);
        int n = Integer.parseInt(kn[1]);
        if (k >= 1 && k <= n) {
          return new int[] {k, n};
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadArgument("--shard needs K/N with 1 <= K <= N (e.g. 3/64), not " + v);
  }
}
