package dev.travertine.slt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;

/**
 * The sqllogictest corpus as packaged in {@code net.hydromatic:sql-logic-test} (622 files under
 * {@code test/}), named as the runner names them: {@code select1.test},
 * {@code index/between/1/slt_good_0.test}. Sorted, so that shards and samples are deterministic.
 */
public final class Corpus {
  private Corpus() {}

  private static List<String> files;

  public static synchronized List<String> files() {
    if (files == null) {
      files = Collections.unmodifiableList(list());
    }
    return files;
  }

  private static List<String> list() {
    URL url = Corpus.class.getClassLoader().getResource("test/select1.test");
    if (url == null) {
      throw new IllegalStateException("The sqllogictest corpus (net.hydromatic:sql-logic-test) is not on the classpath");
    }
    List<String> out = new ArrayList<>();
    try {
      JarURLConnection c = (JarURLConnection) url.openConnection();
      c.setUseCaches(false);
      try (JarFile jar = c.getJarFile()) {
        jar.stream().map(e -> e.getName())
            .filter(n -> n.startsWith("test/") && n.endsWith(".test"))
            .forEach(n -> out.add(n.substring("test/".length())));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Collections.sort(out);
    return out;
  }

  /** Shard {@code k} of {@code n} (1-based): every n-th file of the sorted corpus, from the k-th. */
  public static List<String> shard(int k, int n) {
    if (n < 1 || k < 1 || k > n) {
      throw new IllegalArgumentException("Shard must be K/N with 1 <= K <= N, not " + k + "/" + n);
    }
    List<String> all = files();
    List<String> out = new ArrayList<>();
    for (int i = k - 1; i < all.size(); i += n) {
      out.add(all.get(i));
    }
    return out;
  }

  /**
   * Files whose name starts with one of the patterns ({@code select}, {@code evidence/},
   * {@code index/between/10/}) or equals one.
   */
  public static List<String> matching(List<String> patterns) {
    List<String> out = new ArrayList<>();
    for (String f : files()) {
      for (String p : patterns) {
        if (f.equals(p) || f.startsWith(p)) {
          out.add(f);
          break;
        }
      }
    }
    return out;
  }

  /** In the CI subset, index/ and random/ files run every this many-th query (about 500 of 10,000). */
  public static final int CI_SAMPLE_EVERY = 20;

  /** How many-th queries the CI subset runs of a file: all of select and evidence files. */
  public static int ciSampling(String file) {
    return file.startsWith("index/") || file.startsWith("random/") ? CI_SAMPLE_EVERY : 1;
  }

  /**
   * The subset {@code mvn verify} runs: select1–5, evidence/, and for each kind of index/ and
   * random/ file (index/between, random/aggregates, …) the first {@code slt_good_0.test} in
   * sorted order, i.e. of its smallest data size, of which every {@link #CI_SAMPLE_EVERY}-th
   * query runs ({@link #ciSampling}; all statements run).
   */
  public static List<String> ciSubset() {
    List<String> out = new ArrayList<>(matching(List.of("select", "evidence/")));
    List<String> seen = new ArrayList<>();
    for (String f : files()) {
      if (!(f.startsWith("index/") || f.startsWith("random/")) || !f.endsWith("/slt_good_0.test")) {
        continue;
      }
      String kind = FileResult.directoryOf(f);
      if (!seen.contains(kind)) {
        seen.add(kind);
        out.add(f);
      }
    }
    return out;
  }
}
