package dev.travertine.slt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Command-line mistakes get one clear line and exit status 2, and nothing runs. */
class SltMainTest {
  private static String run(int expectedStatus, String... args) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = SltMain.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(expectedStatus, status, out);
    return out;
  }

  @Test
  void badArgumentsAreOneClearLine() throws Exception {
    assertTrue(run(2, "--frobnicate").startsWith("slt: unknown option --frobnicate"));
    assertTrue(run(2, "--shard", "3").contains("--shard needs K/N with 1 <= K <= N (e.g. 3/64), not 3"));
    assertTrue(run(2, "--shard", "5/4").contains("not 5/4"));
    assertTrue(run(2, "--shard", "a/b").contains("not a/b"));
    assertTrue(run(2, "select1.test", "--sample", "0").contains("--sample needs a whole number of at least 1, not 0"));
    assertTrue(run(2, "select1.test", "--threads", "two").contains("--threads needs a whole number of at least 1, not two"));
    assertTrue(run(2, "select1.test", "--threads").contains("--threads needs a value"));
    assertTrue(run(2).contains("say which files"));
    assertTrue(run(2, "no/such/file.test").contains("no corpus file matches"));
    assertTrue(run(0, "--help").startsWith("usage: slt"));
  }
}
