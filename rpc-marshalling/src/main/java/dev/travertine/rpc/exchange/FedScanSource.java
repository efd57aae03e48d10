package dev.travertine.rpc.exchange;

import dev.travertine.exec.op.ScanSource;
import dev.travertine.exec.op.Workers;
import dev.travertine.mergetree.EngineContext;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.scan.TaskFeed;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.RowFilter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One participant's share of a query with parallel replicas, as a fragment's scan: the snapshot's
 * tasks that {@code feed} hands out (and its insert buffer, if it has one), read with the
 * session's settings. Part metadata answers nothing here: it covers every task, not this share.
 */
final class FedScanSource implements ScanSource {
  /** Replaces the fragment's worker stages of a scan (with its limit, -1 = none); identity by default. */
  interface StageWrapper {
    BatchStage.Factory wrap(BatchStage.Factory stages, long limit);
  }

  private final TableSnapshot snapshot;
  private final int[] projection;
  private final Predicate filter;
  private final SessionSettings settings;
  private final EngineContext ctx;
  private final TaskFeed feed;
  private final AtomicLong rowsRead;
  private final StageWrapper wrap;

  /**
   * @param filter bound to the table's schema (null = none)
   * @param rowsRead gets the rows each scan read when it closes
   */
  FedScanSource(TableSnapshot snapshot, int[] projection, Predicate filter, SessionSettings settings,
      EngineContext ctx, TaskFeed feed, AtomicLong rowsRead, StageWrapper wrap) {
    this.snapshot = snapshot;
    this.projection = projection;
    this.filter = filter;
    this.settings = settings;
    this.ctx = ctx;
    this.feed = feed;
    this.rowsRead = rowsRead;
    this.wrap = wrap;
  }

  @Override public BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) {
    ScanRequest req = ScanRequest.of(settings, projection, filter, limit, false, wrap.wrap(stages, limit), prewhere,
        feed);
    TableScanner scanner = TableScanner.open(snapshot.retainCopy(), req, ctx);
    return BatchIterator.of(scanner, () -> rowsRead.addAndGet(scanner.rowsRead()));
  }

  @Override public Statistics statistics() {
    return null;
  }

  @Override public Workers workers() {
    return new Workers(ctx.scanPool(), (int) settings.getLong(Settings.MAX_THREADS));
  }
}
