package dev.travertine.slt;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.hydromatic.sqllogictest.Main;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.TestStatistics;

/**
 * An early runner: executes sqllogictest files (names as the library knows them, e.g.
 * {@code select1.test}, or substrings of them) on Travertine and prints the library's statistics
 * plus the time per query. The sharded runner with failure lists comes with the sqllogictest issue.
 */
public final class SltMain {
  private SltMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    OptionsParser parser = new OptionsParser(false, out, System.err);
    TravertineSltExecutor.register(parser);
    List<String> a = new ArrayList<>(List.of("-e", "travertine"));
    a.addAll(List.of(args));
    long t0 = System.nanoTime();
    TestStatistics stats = Main.execute(parser, a.toArray(new String[0]));
    double secs = (System.nanoTime() - t0) / 1e9;
    stats.printStatistics(out);
    int queries = stats.getPassedTestCount() + stats.getFailedTestCount();
    out.printf(Locale.ROOT, "%d queries in %.1f s: %.2f ms per query; passed %.2f %%%n", queries, secs,
        queries == 0 ? 0 : secs * 1000 / queries,
        queries == 0 ? 0 : 100.0 * stats.getPassedTestCount() / queries);
  }
}
