package dev.travertine.mergetree.query;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * ClickHouse's {@code system.metric_log}: a sample of every counter ({@code system.events}) and
 * gauge ({@code system.metrics}) taken every second and kept for an hour, so that a dashboard
 * opened now has history. Thread-safe; the samples are taken by whoever calls {@link #add}
 * (the database's background executor).
 */
public final class MetricLog {
  /** One sample: when, and every counter's and gauge's value then. */
  public record Sample(long timeMillis, Map<String, Long> events, Map<String, Long> metrics) {}

  private final int capacity;
  private final Deque<Sample> samples = new ArrayDeque<>();

  /** @param capacity samples kept (3600: an hour of one a second) */
  public MetricLog(int capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("Invalid capacity: " + capacity + " (must be > 0)");
    }
    this.capacity = capacity;
  }

  public synchronized void add(Sample s) {
    samples.addLast(s);
    while (samples.size() > capacity) {
      samples.removeFirst();
    }
  }

  /** The samples, oldest first. */
  public synchronized List<Sample> samples() {
    return new ArrayList<>(samples);
  }
}
