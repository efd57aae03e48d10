package dev.travertine.io.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Plans the requests that serve a set of byte ranges: ranges closer than {@code maxGap} are read
 * by one request (a hole of up to maxGap bytes is read and dropped, cheaper than a round trip), but
 * no request grows beyond {@code maxFetch} bytes, so a large read still goes out as several
 * requests in parallel; a single range larger than maxFetch is split. Overlapping ranges are read
 * once. A pure function (Trino's max-merge-distance and max-buffer; Arrow's hole and range limits).
 */
public final class RangeCoalescer {
  private RangeCoalescer() {}

  /** A byte range asked for. */
  public record Range(long offset, int length) {
    public Range {
      if (offset < 0 || length < 0) {
        throw new IllegalArgumentException("Invalid range: offset " + offset + ", length " + length);
      }
    }

    public long end() {
      return offset + length;
    }
  }

  /** One request to storage: {@code [offset, offset + length)}. */
  public record Fetch(long offset, int length) {
    public long end() {
      return offset + length;
    }

    /** Whether this request reads bytes of {@code r}. */
    public boolean overlaps(Range r) {
      return r.offset() < end() && offset < r.end();
    }
  }

  /**
   * The requests, in offset order, that together cover every non-empty range.
   *
   * @param maxGap largest hole between two ranges still read by one request (bytes, ≥ 0)
   * @param maxFetch largest request (bytes, ≥ 1)
   */
  public static List<Fetch> coalesce(List<Range> ranges, long maxGap, int maxFetch) {
    return coalesce(ranges, maxGap, maxFetch, maxFetch);
  }

  /**
   * As above; requests are also cut into pieces of at most {@code maxPiece} bytes (one large range
   * then goes out as several parallel requests even when merging allows larger ones).
   */
  public static List<Fetch> coalesce(List<Range> ranges, long maxGap, int maxFetch, int maxPiece) {
    if (maxGap < 0 || maxFetch < 1 || maxPiece < 1) {
      throw new IllegalArgumentException("Invalid coalescing limits: gap " + maxGap + ", fetch " + maxFetch);
    }
    List<Range> sorted = new ArrayList<>();
    for (Range r : ranges) {
      if (r.length() > 0) {
        sorted.add(r);
      }
    }
    sorted.sort(Comparator.comparingLong(Range::offset).thenComparing(Range::end, Comparator.reverseOrder()));
    List<Fetch> out = new ArrayList<>();
    long start = -1;
    long end = -1;
    for (Range r : sorted) {
      if (start >= 0 && r.end() <= end) {
        continue; // inside what the current request reads already
      }
      if (start >= 0 && r.offset() - end <= maxGap && Math.max(end, r.end()) - start <= maxFetch) {
        end = Math.max(end, r.end());
        continue;
      }
      if (start >= 0) {
        split(start, end, maxPiece, out);
      }
      // A range overlapping the previous request starts where that one ended.
      start = start >= 0 && r.offset() < end ? end : r.offset();
      end = r.end();
    }
    if (start >= 0) {
      split(start, end, maxPiece, out);
    }
    return out;
  }

  private static void split(long start, long end, int maxFetch, List<Fetch> out) {
    for (long s = start; s < end; s += maxFetch) {
      out.add(new Fetch(s, (int) Math.min(maxFetch, end - s)));
    }
  }
}
