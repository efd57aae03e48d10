package dev.travertine.slt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import net.hydromatic.sqllogictest.Main;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.TestStatistics;
import org.junit.jupiter.api.Test;

/**
 * A first slice of the sqllogictest corpus in every build: select1.test must pass completely
 * (1,000 queries; see docs/sqllogictest.md). The sharded runner with per-file failure lists
 * replaces this with the sqllogictest issue.
 */
class SelectCorpusTest {
  @Test
  void select1PassesCompletely() throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
    OptionsParser parser = new OptionsParser(false, out, out);
    TravertineSltExecutor.register(parser);
    TestStatistics stats = Main.execute(parser, "-e", "travertine", "select1.test");
    stats.printStatistics(out);
    String text = log.toString(StandardCharsets.UTF_8);
    assertEquals(0, stats.getParseFailureCount(), text);
    assertEquals(0, stats.getFailedTestCount(), text);
    assertEquals(1000, stats.getPassedTestCount(), text);
  }
}
