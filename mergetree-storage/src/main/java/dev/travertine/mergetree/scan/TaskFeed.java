package dev.travertine.mergetree.scan;

import java.io.IOException;
import java.util.List;

/**
 * Hands a scan its read tasks a few at a time instead of all at once: with parallel replicas, a
 * coordinator on another node decides which node reads which task, on demand. Tasks are named by
 * the keys {@link TableScanner#taskKeys} gives for the same snapshot and filter. Called by the
 * scan's worker threads, one at a time.
 */
public interface TaskFeed {
  /** The next tasks for this scan (may block); empty when there are no more. */
  List<String> next() throws IOException;
}
