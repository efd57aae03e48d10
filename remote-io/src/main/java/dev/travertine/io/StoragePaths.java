package dev.travertine.io;

/** Checks and joins the '/'-separated relative paths that {@link FileIO} takes. */
public final class StoragePaths {
  private StoragePaths() {}

  /** Joins path segments with '/'. */
  public static String join(String first, String... rest) {
    StringBuilder sb = new StringBuilder(first);
    for (String s : rest) {
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '/') {
        sb.append('/');
      }
      sb.append(s);
    }
    return sb.toString();
  }

  /** Rejects absolute paths, empty segments and '..', which would escape the storage root. */
  public static String check(String path) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("Invalid path: empty");
    }
    if (path.startsWith("/") || path.contains("//") || path.endsWith("/")) {
      throw new IllegalArgumentException("Invalid path: " + path + " (must be relative, no empty segments)");
    }
    for (String seg : path.split("/")) {
      if (seg.equals("..") || seg.equals(".")) {
        throw new IllegalArgumentException("Invalid path: " + path + " (no '.' or '..' segments)");
      }
    }
    return path;
  }
}
