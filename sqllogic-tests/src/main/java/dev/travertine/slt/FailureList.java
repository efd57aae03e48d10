package dev.travertine.slt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checked-in list of allowed failures per corpus file ({@code file count} per line, files
 * with no failures not listed). It may only shrink: a file failing more queries than listed is a
 * regression; one failing fewer should have its count lowered.
 */
public final class FailureList {
  /** Where the list lives in the repository. */
  public static final String PATH = "sqllogic-tests/src/test/resources/slt-failures.txt";
  /** The same list as a test resource. */
  public static final String RESOURCE = "slt-failures.txt";

  private final TreeMap<String, Integer> allowed = new TreeMap<>();

  public static FailureList parse(List<String> lines) {
    FailureList l = new FailureList();
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s+");
      if (f.length != 2) {
        throw new IllegalArgumentException("Bad failure list line (want: FILE COUNT): " + raw);
      }
      l.allowed.put(f[0], Integer.parseInt(f[1]));
    }
    return l;
  }

  public static FailureList read(Path p) throws IOException {
    return Files.exists(p) ? parse(Files.readAllLines(p, StandardCharsets.UTF_8)) : new FailureList();
  }

  public int allowed(String file) {
    return allowed.getOrDefault(file, 0);
  }

  /** Regressions (files failing more than listed), empty when none. */
  public List<String> regressions(Collection<FileResult> results) {
    List<String> out = new ArrayList<>();
    for (FileResult r : results) {
      if (r.failed() > allowed(r.file())) {
        String top = r.causes().isEmpty() ? "" : "; most: " + r.causes().keySet().iterator().next();
        out.add(String.format(Locale.ROOT, "%s fails %d queries, %d allowed%s", r.file(), r.failed(),
            allowed(r.file()), top));
      }
    }
    return out;
  }

  /** Files that fail fewer queries than listed: their count should go down. */
  public List<String> improvements(Collection<FileResult> results) {
    List<String> out = new ArrayList<>();
    for (FileResult r : results) {
      if (r.failed() < allowed(r.file())) {
        out.add(String.format(Locale.ROOT, "%s fails %d queries, %d listed: lower its count in %s", r.file(),
            r.failed(), allowed(r.file()), PATH));
      }
    }
    return out;
  }

  /** Sets the counts of the files run to what they failed now. */
  public void update(Collection<FileResult> results) {
    for (FileResult r : results) {
      if (r.failed() == 0) {
        allowed.remove(r.file());
      } else {
        allowed.put(r.file(), r.failed());
      }
    }
  }

  public Map<String, Integer> entries() {
    return java.util.Collections.unmodifiableMap(allowed);
  }

  public void write(Path p) throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("# Allowed sqllogictest failures per corpus file: FILE COUNT (files without failures are not listed).\n")
        .append("# The build fails when a file fails more queries than listed here; lower a count when a file does\n")
        .append("# better. scripts/slt.sh --update-failures … rewrites the entries of the files it ran.\n");
    allowed.forEach((f, n) -> b.append(f).append(' ').append(n).append('\n'));
    Files.writeString(p, b.toString(), StandardCharsets.UTF_8);
  }
}
