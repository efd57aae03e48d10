package dev.travertine.slt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sqllogictest subset every build runs ({@link Corpus#ciSubset}: select1–5, evidence/, and
 * every 20th query of one file of each index/ and random/ kind), compared with the checked-in failure list: any file
 * failing more queries than listed fails the build. Results go to target/slt-ci.tsv, progress
 * and the files that did better than listed to target/slt-ci.log.
 */
class CiSubsetTest {
  @Test
  void subsetDoesNotRegress() throws Exception {
    FailureList list;
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(FailureList.RESOURCE)) {
      assertTrue(in != null, "failure list resource missing");
      list = FailureList.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream progress = new PrintStream(log, true, StandardCharsets.UTF_8);
    List<String> files = Corpus.ciSubset();
    long t0 = System.nanoTime();
    List<FileResult> results = new SltRunner(2, null, progress).run(files, Corpus::ciSampling);
    SltMain.summary(results, (System.nanoTime() - t0) / 1e9, progress);
    list.improvements(results.stream().filter(r -> Corpus.ciSampling(r.file()) == 1).toList()).forEach(l -> progress.println("better: " + l));
    SltRunner.write(Path.of("target/slt-ci.tsv"), results, "mvn verify (CiSubsetTest)");
    String text = log.toString(StandardCharsets.UTF_8);
    Files.writeString(Path.of("target/slt-ci.log"), text);
    assertEquals(files.size(), results.size(), text);
    List<String> regressions = list.regressions(results);
    assertTrue(regressions.isEmpty(), "sqllogictest regressions against " + FailureList.PATH + ":\n"
        + String.join("\n", regressions) + "\n\n" + text);
  }
}
