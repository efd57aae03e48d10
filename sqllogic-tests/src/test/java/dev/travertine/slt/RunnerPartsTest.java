package dev.travertine.slt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's pieces: results lines, causes, the failure list, shards and the report. */
class RunnerPartsTest {
  @TempDir Path dir;

  private static FileResult result(String file, int queries, int failed, String cause) {
    Map<String, Integer> causes = new LinkedHashMap<>();
    Map<String, String> examples = new LinkedHashMap<>();
    if (failed > 0) {
      causes.put(cause, failed);
      examples.put(cause, "SELECT 1");
    }
    long[] hist = new long[FileResult.BUCKETS_MS.length];
    hist[FileResult.bucket(3.5)] = queries;
    return new FileResult(file, queries, queries - failed, failed, 0, null, 1000, causes, examples, hist);
  }

  @Test
  void resultsLineRoundTrips() {
    FileResult r = result("index/between/1/slt_good_0.test", 100, 3, "wrong result");
    FileResult back = FileResult.parseTsv(r.toTsv());
    assertEquals(r.file(), back.file());
    assertEquals(100, back.queries());
    assertEquals(3, back.failed());
    assertEquals(Map.of("wrong result", 3), back.causes());
    assertEquals("SELECT 1", back.examples().get("wrong result"));
    assertEquals(100, back.histogram()[FileResult.bucket(3.5)]);
    assertEquals("index/between", back.directory());
    assertEquals("select", FileResult.directoryOf("select4.test"));
    assertThrows(IllegalArgumentException.class, () -> FileResult.parseTsv("not\ta line"));
  }

  @Test
  void causesGroupWhatVaries() {
    assertEquals("wrong result", FileResult.cause("Hash of data does not match expected value"));
    assertEquals("wrong number of values", FileResult.cause("Expected 10 rows, got 8"));
    assertEquals(FileResult.cause("From line 1, column 8 to line 1, column 20: Column 'X' not found in any table"),
        FileResult.cause("From line 3, column 1 to line 3, column 2: Column 'COL9' not found in any table"));
    assertEquals("Encountered \"OR\".", FileResult.cause("Encountered \"OR\" at line 1, column 8.\nWas expecting: …"));
    assertEquals("Encountered \"OR\".", FileResult.cause("Error -1 (00000) : Error while executing SQL \"INSERT OR "
        + "REPLACE INTO t1 VALUES(2, 'x')\": Remote driver error: RuntimeException: java.sql.SQLException: Error while "
        + "executing SQL \"INSERT OR REPLACE INTO t1 VALUES(2, 'x')\": parse failed: Encountered \"OR\" at line 1, column 8."));
  }

  @Test
  void passPercentNeverShowsAHundredWhileSomeFailed() {
    assertEquals("99.9997", FileResult.passPercent(5_464_394, 5_464_410));
    assertEquals("99.99998", FileResult.passPercent(5_464_409, 5_464_410));
    assertEquals("99.750", FileResult.passPercent(9_975, 10_000));
    assertEquals("100.000", FileResult.passPercent(10, 10));
    assertEquals("100.000", FileResult.passPercent(0, 0));
    assertEquals("0.000", FileResult.passPercent(0, 7));
  }

  @Test
  void medianInterpolatesInItsBucket() {
    long[] h = new long[FileResult.BUCKETS_MS.length];
    h[FileResult.bucket(4.5)] = 10; // all in (4, 5]
    double m = FileResult.medianMs(h);
    assertTrue(m > 4 && m <= 5, "median " + m);
    assertEquals(0, FileResult.medianMs(new long[FileResult.BUCKETS_MS.length]));
  }

  @Test
  void failureListOnlyShrinks() throws Exception {
    FailureList l = FailureList.parse(List.of("# comment", "a.test 5", "b.test 2", ""));
    List<FileResult> run = List.of(result("a.test", 10, 6, "x"), result("b.test", 10, 1, "y"),
        result("c.test", 10, 0, ""), result("d.test", 10, 1, "z"));
    assertEquals(2, l.regressions(run).size()); // a: 6 > 5; d: 1 > 0
    assertTrue(l.regressions(run).get(0).startsWith("a.test fails 6 queries, 5 allowed"));
    assertEquals(1, l.improvements(run).size()); // b: 1 < 2
    l.update(run);
    Path p = dir.resolve("list.txt");
    l.write(p);
    FailureList back = FailureList.read(p);
    assertEquals(Map.of("a.test", 6, "b.test", 1, "d.test", 1), back.entries());
    assertTrue(back.regressions(run).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> FailureList.parse(List.of("a.test five six")));
  }

  @Test
  void shardsCoverTheCorpusOnce() {
    int n = 7;
    int total = 0;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int k = 1; k <= n; k++) {
      List<String> s = Corpus.shard(k, n);
      total += s.size();
      seen.addAll(s);
    }
    assertEquals(Corpus.files().size(), total);
    assertEquals(Corpus.files().size(), seen.size());
    assertEquals(622, Corpus.files().size());
    assertThrows(IllegalArgumentException.class, () -> Corpus.shard(0, 3));
    assertTrue(Corpus.ciSubset().containsAll(Corpus.matching(List.of("select", "evidence/"))));
  }

  @Test
  void reportAggregatesTheNewestRunOfEachFile() throws Exception {
    SltRunner.write(dir.resolve("shard-01-of-02.tsv"), List.of(result("select1.test", 1000, 10, "wrong result")),
        "scripts/slt.sh --shard 1/2");
    Thread.sleep(1100); // results files are dated to the second
    SltRunner.write(dir.resolve("shard-02-of-02.tsv"), List.of(result("select1.test", 1000, 0, ""),
        result("evidence/in1.test", 100, 2, "Encountered \")\".")), "scripts/slt.sh --shard 2/2");
    String md = SltReport.markdown(dir);
    assertTrue(md.contains("Coverage: 2 of 622 corpus files"), md);
    assertTrue(md.contains("Passed 1,098 (99.818 %), failed 2."), md);
    assertTrue(md.contains("| select | 1 | 1,000 | 1,000 | 0 |"), md);
    assertTrue(md.contains("| 2 | Encountered \")\". |"), md);
  }
}
