package dev.travertine.rpc.exchange;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Hands out the read tasks of one query to its participants on demand (ClickHouse's
 * ParallelReplicasReadingCoordinator). Every task has an owner, chosen by rendezvous hashing of
 * the task's key over the participants' names, so the same node reads the same part stripes query
 * after query and its caches stay warm; a participant asks for more when it needs work and gets
 * its own tasks first, then steals from the end of the list of whoever has most left, so a slow
 * node ends up reading less. A participant that fails gives its unfinished tasks back
 * ({@link #fail}): they go to the others. Thread-safe.
 */
public final class Coordinator {
  private final List<String> participants;
  private final Map<String, Deque<String>> unassigned = new HashMap<>();
  private final Map<String, Set<String>> assigned = new HashMap<>();
  private final Set<String> failed = new LinkedHashSet<>();
  private final Set<String> finished = new LinkedHashSet<>();
  private final Map<String, Integer> handedOut = new HashMap<>();

  /** @param participants names of the nodes that read (distinct; order does not matter) */
  public Coordinator(List<String> tasks, List<String> participants) {
    if (participants.isEmpty()) {
      throw new IllegalArgumentException("No participants");
    }
    this.participants = List.copyOf(participants);
    for (String p : participants) {
      unassigned.put(p, new ArrayDeque<>());
      assigned.put(p, new LinkedHashSet<>());
    }
    for (String t : tasks) {
      unassigned.get(owner(t, this.participants)).add(t);
    }
  }

  /** The participant of {@code among} that owns task {@code key}: the highest hash of (key, name). */
  static String owner(String key, List<String> among) {
    String best = null;
    long bestScore = -1;
    for (String p : among) {
      CRC32C h = new CRC32C();
      h.update(p.getBytes(StandardCharsets.UTF_8));
      h.update(0);
      h.update(key.getBytes(StandardCharsets.UTF_8));
      long score = mix(h.getValue());
      if (score > bestScore) {
        bestScore = score;
        best = p;
      }
    }
    return best;
  }

  private static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    return x & Long.MAX_VALUE;
  }

  /**
   * Up to {@code want} tasks for {@code participant}: its own first, then stolen ones; empty when
   * none are left to hand out (others may still be reading theirs).
   */
  public synchronized List<String> next(String participant, int want) {
    if (failed.contains(participant) || !unassigned.containsKey(participant)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    Deque<String> own = unassigned.get(participant);
    while (out.size() < want && !own.isEmpty()) {
      out.add(own.pollFirst());
    }
    while (out.size() < want) {
      Deque<String> victim = null;
      for (String p : participants) {
        Deque<String> q = unassigned.get(p);
        if (!p.equals(participant) && !q.isEmpty() && (victim == null || q.size() > victim.size())) {
          victim = q;
        }
      }
      if (victim == null) {
        break;
      }
      out.add(victim.pollLast());
    }
    assigned.get(participant).addAll(out);
    handedOut.merge(participant, out.size(), Integer::sum);
    return out;
  }

  /** The participant read all its tasks to the end and sent its result. */
  public synchronized void finish(String participant) {
    finished.add(participant);
    notifyAll();
  }

  /**
   * The participant failed: its tasks (handed out or not) go back to the others, by owner among
   * those still running. Returns how many.
   */
  public synchronized int fail(String participant) {
    if (!failed.add(participant)) {
      return 0;
    }
    List<String> back = new ArrayList<>(assigned.get(participant));
    back.addAll(unassigned.get(participant));
    assigned.get(participant).clear();
    unassigned.get(participant).clear();
    List<String> alive = participants.stream().filter(p -> !failed.contains(p)).toList();
    if (!alive.isEmpty()) {
      for (String t : back) {
        unassigned.get(owner(t, alive)).add(t);
      }
    }
    notifyAll();
    return back.size();
  }

  /** Tasks not yet handed out. */
  public synchronized int remaining() {
    int n = 0;
    for (Deque<String> q : unassigned.values()) {
      n += q.size();
    }
    return n;
  }

  /**
   * Waits (up to {@code timeoutMillis}) while nothing is left to hand out but other participants
   * still read, since a failing one gives its tasks back. False when no task can come any more:
   * {@code participant} is done.
   */
  public synchronized boolean mayGetMore(String participant, long timeoutMillis) throws InterruptedException {
    long end = System.nanoTime() + timeoutMillis * 1_000_000;
    while (remaining() == 0 && othersActive(participant)) {
      long left = (end - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return true;
      }
      wait(left);
    }
    return remaining() > 0;
  }

  private boolean othersActive(String participant) {
    for (String p : participants) {
      if (!p.equals(participant) && !failed.contains(p) && !finished.contains(p)) {
        return true;
      }
    }
    return false;
  }

  /** Tasks handed to each participant so far (what EXPLAIN ANALYZE-like reports show). */
  public synchronized Map<String, Integer> handedOut() {
    return Map.copyOf(handedOut);
  }

}
