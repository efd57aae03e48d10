package dev.travertine.mergetree.scan;

import dev.travertine.exec.driver.Driver;
import dev.travertine.exec.driver.Morsel;
import dev.travertine.exec.driver.MorselSource;
import dev.travertine.vector.Batch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An unordered scan's read tasks as the morsels of a {@link Driver}: taken in plan order, or as a
 * {@link TaskFeed} names them (parallel replicas). Whoever takes a task starts fetching the
 * queue's next ones (remote parts) as far as the {@link PrefetchWindow} allows, so they arrive
 * while it decodes this one.
 */
final class TaskQueue implements MorselSource {
  private final ConcurrentLinkedQueue<TaskSource> todo;
  private final List<TaskSource> all;
  private final PrefetchWindow window;
  /** Where further tasks come from (null: none), and the tasks it may name, by key. */
  private final TaskFeed feed;
  private final Map<String, TaskSource> fed;
  private boolean feedEnded;
  /** The driver running the tasks (set once it started): its workers stop taking them when it stopped. */
  volatile Driver driver;

  TaskQueue(List<TaskSource> sources, PrefetchWindow window, TaskFeed feed, Map<String, TaskSource> fed) {
    this.window = window;
    this.feed = feed;
    this.fed = fed;
    List<TaskSource> everything = new ArrayList<>(sources);
    everything.addAll(fed.values());
    this.all = everything;
    this.todo = new ConcurrentLinkedQueue<>(sources);
  }

  private boolean stopped() {
    Driver d = driver;
    return d != null && d.stopped();
  }

  @Override public Morsel next() throws IOException {
    TaskSource s = poll();
    if (s == null) {
      return null;
    }
    int n = 0;
    long bytes = 0;
    for (TaskSource next : todo) { // the queue's next tasks are fetched while this one is decoded
      if (stopped() || !window.wantsMore(n, bytes) || !next.prefetch()) {
        break;
      }
      n++;
      bytes += next.readBytes();
    }
    return sink -> {
      try (TaskSource src = s) {
        Batch b;
        while (!sink.stopped() && (b = src.next()) != null) {
          if (sink.push(b)) {
            src.recycle(); // its vectors take the next batch
          }
        }
      }
    };
  }

  /** The next task: from the queue, else the next ones from the feed. */
  private TaskSource poll() throws IOException {
    TaskSource s = todo.poll();
    if (s != null || feed == null) {
      return s;
    }
    synchronized (fed) {
      while ((s = todo.poll()) == null && !feedEnded && !stopped()) {
        List<String> keys = feed.next();
        feedEnded = keys.isEmpty();
        for (String k : keys) {
          TaskSource x = fed.remove(k);
          if (x == null) {
            throw new IOException("Read task " + k + " is not one of this scan's (or was handed out twice)");
          }
          todo.add(x);
        }
      }
      return s;
    }
  }

  @Override public void close() throws IOException {
    TableScanner.closeAll(all);
  }
}
