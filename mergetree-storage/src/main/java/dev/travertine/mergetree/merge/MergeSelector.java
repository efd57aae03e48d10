package dev.travertine.mergetree.merge;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses which adjacent parts of one partition to merge, in the spirit of ClickHouse's
 * SimpleMergeSelector: among ranges of 2..maxParts adjacent parts (by block number) whose largest
 * part is not too big against the rest ({@code max <= base · (sum − max)}, relaxed as the partition
 * accumulates parts), pick the one with the lowest cost per part merged — favouring many small
 * parts. A pure function, so it is tested without a table.
 */
public final class MergeSelector {
  private MergeSelector() {}

  /**
   * A part of the partition: its size in bytes and rows, and whether a merge or mutation is
   * already rewriting it. A busy part is a barrier: a range never spans it, so every merge takes
   * neighbours and active parts keep covering disjoint block ranges.
   */
  public record Candidate(String name, long bytes, long rows, boolean busy) {
    public Candidate(String name, long bytes, long rows) {
      this(name, bytes, rows, false);
    }
  }

  /**
   * @param parts every part of the partition, busy ones included, ordered by block number
   * @return the chosen range, or an empty list when no merge is worth doing
   */
  public static List<Candidate> select(List<Candidate> parts, int maxParts, long maxBytes, double base) {
    if (parts.size() < 2) {
      return List.of();
    }
    // Many parts waiting loosens the balance rule, as ClickHouse does when a partition falls behind.
    double effectiveBase = parts.size() >= 2 * maxParts ? Double.MAX_VALUE : base;
    double bestScore = Double.MAX_VALUE;
    int bestFrom = -1;
    int bestTo = -1;
    for (int from = 0; from < parts.size(); from++) {
      long sum = 0;
      long max = 0;
      for (int to = from; to < parts.size() && to - from < maxParts && !parts.get(to).busy(); to++) {
        long b = Math.max(1, parts.get(to).bytes());
        sum += b;
        max = Math.max(max, b);
        if (sum > maxBytes) {
          break;
        }
        int count = to - from + 1;
        if (count < 2) {
          continue;
        }
        if (max > effectiveBase * (sum - max)) {
          continue;
        }
        // Cost of rewriting `sum` bytes, spread over the parts it removes.
        double score = (double) sum / (count - 1);
        if (score < bestScore || (score == bestScore && count > bestTo - bestFrom + 1)) {
          bestScore = score;
          bestFrom = from;
          bestTo = to;
        }
      }
    }
    if (bestFrom < 0) {
      return List.of();
    }
    return new ArrayList<>(parts.subList(bestFrom, bestTo + 1));
  }
}
