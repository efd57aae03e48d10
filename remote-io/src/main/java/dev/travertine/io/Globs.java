package dev.travertine.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * File name patterns of table functions ({@code s3('s3://bucket/logs/*.orc')}): {@code *}
 * and {@code ?} within one path segment, {@code **} across segments, {@code {a,b}} alternatives.
 */
public final class Globs {
  private Globs() {}

  /** A location split where the pattern starts: the storage root, and the pattern under it. */
  public record Split(String root, String pattern) {}

  /**
   * Splits {@code location} at the last '/' before the first pattern character (so that at least
   * one directory stays in the pattern, to list under).
   */
  public static Split split(String location) {
    int firstGlob = indexOfGlob(location);
    String fixed = firstGlob < 0 ? location : location.substring(0, firstGlob);
    int slash = fixed.lastIndexOf('/');
    int dirSlash = slash <= 0 ? -1 : location.lastIndexOf('/', slash - 1);
    int schemeEnd = location.indexOf("://");
    int minimum = schemeEnd < 0 ? 0 : location.indexOf('/', schemeEnd + 3);
    if (dirSlash < 0 || dirSlash < minimum) {
      throw new IllegalArgumentException("Invalid file pattern " + location
          + ": it needs a directory before the file name (e.g. s3://bucket/dir/*.orc)");
    }
    return new Split(location.substring(0, dirSlash), location.substring(dirSlash + 1));
  }

  private static int indexOfGlob(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '*' || c == '?' || c == '{' || c == '[') {
        return i;
      }
    }
    return -1;
  }

  /** The regular expression of a pattern. */
  public static Pattern regex(String glob) {
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> {
          if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
            re.append(".*");
            i++;
          } else {
            re.append("[^/]*");
          }
        }
        case '?' -> re.append("[^/]");
        case '{' -> re.append("(?:");
        case '}' -> re.append(')');
        case ',' -> re.append(glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i) ? "|" : ",");
        default -> re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString());
  }

  /** The objects of {@code io} (rooted at the split's root) whose paths match the pattern, sorted. */
  public static List<FileInfo> expand(FileIO io, String pattern) throws IOException {
    String top = pattern.substring(0, pattern.indexOf('/') < 0 ? pattern.length() : pattern.indexOf('/'));
    Pattern re = regex(pattern);
    List<FileInfo> out = new ArrayList<>();
    if (indexOfGlob(pattern) < 0) {
      if (io.exists(pattern)) {
        out.add(new FileInfo(pattern, io.newInputFile(pattern).length(), 0));
      }
      return out;
    }
    for (FileInfo f : io.list(top)) {
      if (re.matcher(f.path()).matches()) {
        out.add(f);
      }
    }
    return out;
  }
}
