package dev.travertine.exec.op;

import dev.travertine.exec.Columns;
import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.exec.expr.Evaluators;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.VectorExpression;
import dev.travertine.exec.join.BuildMatches;
import dev.travertine.exec.join.HashJoinProbe;
import dev.travertine.exec.join.JoinTable;
import dev.travertine.exec.join.KeyFilter;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.RowFilter;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Runs a {@link Fragment}. The steps up to the first aggregate or sort run in the scan's worker
 * threads (each worker filters, computes and — for an aggregate or top-N — builds a partial state
 * of its own); the partial states are merged when the scan ends, and the remaining steps run on
 * the result in the caller's thread. Every stage checks for cancellation once per batch.
 */
public final class FragmentRunner {
  private final Fragment fragment;
  private final ScanSource scan;
  private final Runnable cancelCheck;
  private final MemoryTracker memory;
  private final int batchSize;
  private final IntFunction<ScanSource> joinSources;
  /** The built table of each join step of the fragment. */
  private final Map<Step.HashJoin, JoinTable> tables = new IdentityHashMap<>();
  /** The joins whose build side spilled (grace hash joins), by step. */
  private final Map<Step.HashJoin, GraceJoin> spilled = new IdentityHashMap<>();
  /** When a join's build side spills, and where to. */
  private final SpillStore.JoinSpilling spilling;
  /** The matched build rows of each FULL join step. */
  private final Map<Step.HashJoin, BuildMatches> matches = new IdentityHashMap<>();
  /** Whether INNER and SEMI joins' tables filter the probe side's scan (runtime filters). */
  private final boolean runtimeFilters;
  /** The runtime filters on the scan's fields, once the tables are built. */
  private final List<ComputeStage.FieldFilter> keyFilters = new ArrayList<>();

  /** Filters on the fragment's output fields from the join it is the build side of (see {@link SidewaysFilters}). */
  private final List<SidewaysFilters.OnOutput> inherited;
  /** The top-N breaker's dynamic filter on scan field {@link #topNField}, or null. */
  private TopNThreshold topN;
  private int topNField = -1;

  private FragmentRunner(Fragment fragment, ScanSource scan, IntFunction<ScanSource> joinSources,
      Runnable cancelCheck, MemoryTracker memory, int batchSize, boolean runtimeFilters,
      SpillStore.JoinSpilling spilling, List<SidewaysFilters.OnOutput> inherited) {
    this.inherited = inherited;
    this.spilling = spilling;
    this.fragment = fragment;
    this.runtimeFilters = runtimeFilters;
    this.scan = scan;
    this.joinSources = joinSources;
    this.cancelCheck = cancelCheck;
    this.memory = memory;
    this.batchSize = batchSize;
  }

  /**
   * Starts the fragment; its output streams from the returned iterator. {@code cancelCheck} throws
   * when the query is cancelled; operator states are charged to {@code memory}.
   */
  public static BatchIterator run(Fragment fragment, ScanSource scan, Runnable cancelCheck, MemoryTracker memory,
      int batchSize) throws IOException {
    return run(fragment, scan, k -> {
      throw new IllegalArgumentException("No scan source " + k + " for a join's build side");
    }, cancelCheck, memory, batchSize);
  }

  /**
   * As {@link #run(Fragment, ScanSource, Runnable, MemoryTracker, int)}, for a fragment with hash
   * joins: {@code joinSources} gives the scan of each join's build side by its source number.
   * Every join's build side runs to its end (a fragment of its own, in parallel as any) and is
   * hashed before the probe side's scan starts.
   */
  public static BatchIterator run(Fragment fragment, ScanSource scan, IntFunction<ScanSource> joinSources,
      Runnable cancelCheck, MemoryTracker memory, int batchSize) throws IOException {
    return run(fragment, scan, joinSources, cancelCheck, memory, batchSize, true);
  }

  /**
   * As above; {@code runtimeFilters}: whether an INNER or SEMI join whose probe key is an integer
   * column of the scan filters the scan with its built keys ({@link KeyFilter}: the range prunes
   * granules, the key set drops rows before the other columns are decoded and the steps run).
   */
  public static BatchIterator run(Fragment fragment, ScanSource scan, IntFunction<ScanSource> joinSources,
      Runnable cancelCheck, MemoryTracker memory, int batchSize, boolean runtimeFilters) throws IOException {
    return run(fragment, scan, joinSources, cancelCheck, memory, batchSize, runtimeFilters,
        SpillStore.JoinSpilling.NONE);
  }

  /**
   * As above; a join (with an equi-key) whose build side holds more than
   * {@code spilling.maxBytesInJoin()} goes to disk and joins partition by partition
   * ({@link GraceJoin}).
   */
  public static BatchIterator run(Fragment fragment, ScanSource scan, IntFunction<ScanSource> joinSources,
      Runnable cancelCheck, MemoryTracker memory, int batchSize, boolean runtimeFilters,
      SpillStore.JoinSpilling spilling) throws IOException {
    return run(fragment, scan, joinSources, cancelCheck, memory, batchSize, runtimeFilters, spilling, List.of());
  }

  private static BatchIterator run(Fragment fragment, ScanSource scan, IntFunction<ScanSource> joinSources,
      Runnable cancelCheck, MemoryTracker memory, int batchSize, boolean runtimeFilters,
      SpillStore.JoinSpilling spilling, List<SidewaysFilters.OnOutput> inherited) throws IOException {
    FragmentRunner r = new FragmentRunner(fragment, scan, joinSources, cancelCheck, memory, batchSize, runtimeFilters,
        spilling, inherited);
    try {
      return r.start();
    } catch (IOException | RuntimeException | Error e) {
      r.closeSpills(); // what start() did not hand to an iterator
      throw e;
    }
  }

  private static boolean perRow(Step s) {
    return s instanceof Step.Filter || s instanceof Step.Project || s instanceof Step.HashJoin;
  }

  /** Runs each join's build side and hashes it, charging the table to the query. */
  private void buildTables() throws IOException {
    List<Step> steps = fragment.steps();
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i) instanceof Step.HashJoin j) {
        Fragment b = j.build();
        List<Batch> rows = new ArrayList<>();
        MemoryTracker.Account acct = memory.account();
        long held = 0;
        GraceJoin grace = null;
        List<SidewaysFilters.OnOutput> sideways = runtimeFilters ? SidewaysFilters.forBuild(fragment, i, tables::get)
            : List.of();
        try (BatchIterator it = run(b, joinSources.apply(j.buildSource()), joinSources, cancelCheck, memory,
            batchSize, runtimeFilters, spilling, sideways)) {
          Batch batch;
          while ((batch = next(it)) != null) {
            if (grace != null) {
              grace.addBuild(batch);
              continue;
            }
            rows.add(batch);
            for (int c = 0; c < batch.cols().length; c++) {
              held += Vectors.bytes(batch.cols()[c], b.outputTypes().get(c).kind(), batch.size());
            }
            if (spilling.enabled() && j.buildKeys().length > 0 && j.kind().spills()
                && held > spilling.maxBytesInJoin()) {
              grace = new GraceJoin(j, b.outputTypes(), spilling.store(), fragment.types().get(i));
              spilled.put(j, grace); // closed with the fragment's iterator, or by run() on a failure
              for (Batch r : rows) {
                grace.addBuild(r);
              }
              rows.clear();
              held = 0;
            }
            acct.resize(held);
          }
        }
        if (grace != null) {
          continue;
        }
        JoinTable t = JoinTable.build(b.outputTypes(), j.buildKeys(), rows, scan.workers().forJoinBuild(cancelCheck));
        tables.put(j, t);
        if (j.kind().emitsBuildRows()) {
          BuildMatches m = new BuildMatches(t);
          matches.put(j, m);
          held += m.bytes();
        }
        acct.resize(held + t.bytes());
      }
    }
  }

  /**
   * The runtime filters of the joins that drop unmatched probe rows (INNER, SEMI, RIGHT,
   * RIGHT_SEMI, RIGHT_ANTI: {@link HashJoinProbe.Kind#dropsUnmatchedProbeRows}) whose probe key is a
   * field of the scan passed on unchanged to the join: a scan row whose field fails the join's
   * {@link KeyFilter} yields no row past the join. The scan's workers apply them first thing.
   */
  private void keyFilters() {
    if (!runtimeFilters) {
      return;
    }
    List<DataType> scanTypes = fragment.types().get(0);
    for (SidewaysFilters.OnOutput o : inherited) {
      int f = SidewaysFilters.scanFieldOfOutput(fragment, o.field());
      if (f >= 0 && SidewaysFilters.filterable(scanTypes.get(f)) && o.filter().onStrings()
          == (scanTypes.get(f).kind() == TypeKind.CHAR || scanTypes.get(f).kind() == TypeKind.VARCHAR)) {
        keyFilters.add(new ComputeStage.FieldFilter(f, o.filter()));
      }
    }
    // Every join whose probe key carries a scan field: also joins after an aggregate (whose group
    // key it is), as TPC-H Q17's RIGHT_SEMI probe of lineitem's averages per part, filtered to the
    // parts it builds. A scan row failing the filter only makes rows (or groups) the join drops.
    for (int i = 0; i < fragment.steps().size(); i++) {
      if (fragment.steps().get(i) instanceof Step.HashJoin j && !spilled.containsKey(j) && tables.get(j) != null
          && j.kind().dropsUnmatchedProbeRows()) {
        for (int c = 0; c < j.probeKeys().length; c++) {
          int f = scanField(i, j.probeKeys()[c]);
          if (f >= 0 && SidewaysFilters.filterable(scanTypes.get(f))) {
            KeyFilter k = tables.get(j).keyFilter(c);
            if (k != null) {
              keyFilters.add(new ComputeStage.FieldFilter(f, k));
            }
          }
        }
      }
    }
  }

  /**
   * The scan field that {@code field} of step {@code step}'s input passes on unchanged (through
   * filters, projections of bare fields, probe fields of joins, GROUP BY keys and sorts without a
   * limit), or -1.
   */
  private int scanField(int step, int field) {
    for (int k = step - 1; k >= 0 && field >= 0; k--) {
      Step s = fragment.steps().get(k);
      if (s instanceof Step.Aggregate a) {
        field = a.phase() != Step.Phase.FINAL && field < a.keys().length ? a.keys()[field] : -1;
      } else if (s instanceof Step.Sort sort) {
        field = sort.fetch() < 0 && sort.offset() == 0 ? field : -1;
      } else if (s instanceof Step.Project p) {
        field = p.exprs().get(field) instanceof Expr.Column c ? c.index() : -1;
      } else if (s instanceof Step.HashJoin j) {
        // the build side's fields come after the probe's, or are all there is
        field = !j.kind().buildFieldsOnly() && field < fragment.types().get(k).size() ? field : -1;
      } else if (!(s instanceof Step.Filter)) {
        return -1;
      }
    }
    return field;
  }

  /** The runtime filters as a scan predicate on table columns (granule pruning), or null. */
  private Predicate narrowing() {
    if (keyFilters.isEmpty()) {
      return null;
    }
    List<Predicate> all = new ArrayList<>();
    for (ComputeStage.FieldFilter f : keyFilters) {
      Predicate p = f.filter().narrowing(fragment.scanColumns()[f.field()]);
      if (p != null) { // string keys' filters prune no granule
        all.add(p);
      }
    }
    return all.isEmpty() ? null : all.size() == 1 ? all.get(0) : new Predicate.And(all);
  }

  private ComputeStage stage(int[] cols, int from, int to) {
    // the types before each step and, last, the stage's output types
    return new ComputeStage(cols, fragment.steps().subList(from, to), fragment.types().subList(from, to + 1), tables::get,
        matches::get,
        from == 0 && cols != null ? keyFilters : List.of(), cancelCheck);
  }

  private BatchIterator start() throws IOException {
    buildTables();
    List<Step> steps = fragment.steps();
    int i = 0;
    while (i < steps.size() && perRow(steps.get(i)) && !spilled.containsKey(steps.get(i))) {
      if (emitsBuildRows(steps.get(i++))) {
        break;
      }
    }
    keyFilters();
    List<Step> prefix = steps.subList(0, i);
    int[] cols = fragment.scanColumns();
    if (i > 0 && emitsBuildRows(steps.get(i - 1))) {
      // The workers run up to the join that emits build rows (FULL, RIGHT, RIGHT_SEMI, RIGHT_ANTI);
      // its build rows follow once they all end, then the rest runs on this thread.
      return rest(withBuildRows(scanned(cols, prefix, -1), (Step.HashJoin) steps.get(i - 1), i - 1), i);
    }
    if (i < steps.size() && spilled.containsKey(steps.get(i))) {
      // The workers run up to the spilled join; it joins partition by partition on this thread.
      return rest(graceJoin(scanned(cols, prefix, -1), i), i + 1);
    }
    List<DataType> types = fragment.types().get(i);
    BatchIterator it;
    Step breaker = i < steps.size() ? steps.get(i) : null;
    if (breaker instanceof Step.Aggregate a) {
      boolean complete = a.phase() == Step.Phase.COMPLETE;
      ScanSource.Statistics stats = complete && prefix.isEmpty() && fromStatistics(a) ? scan.statistics() : null;
      if (stats != null && answerable(a, stats)) {
        it = statisticsRow(a, stats, fragment.types().get(i + 1));
      } else {
        boolean merging = a.phase() == Step.Phase.FINAL;
        PartialAggregates partials = new PartialAggregates(merging ? a.sourceTypes() : types, a.keys(), a.calls(),
            PartialAggregates.Tuning.DEFAULT);
        drain(BatchStage.Factory.ofConsuming(() -> {
          ComputeStage cs = merging ? stage(cols, 0, prefix.size()) : stage(cols, 0, prefix.size()).narrowOutput();
          cs.consumedOutput(); // the aggregate copies what it keeps
          PartialAggregates.Worker w = partials.worker();
          MemoryTracker.Account acct = memory.account();
          // nor does the scan need new vectors for the next batch
          return BatchStage.consuming(b -> {
            if (merging) {
              w.addPartial(cs.apply(b));
            } else {
              w.add(cs.apply(b));
            }
            acct.resize(w.bytes());
          });
        }), -1);
        List<Batch> out = new ArrayList<>();
        for (HashAggregator h : partials.finish(scan.workers(), cancelCheck, memory)) {
          out.addAll(a.phase() == Step.Phase.PARTIAL ? h.partialResult(batchSize) : h.result(batchSize));
        }
        it = of(out);
      }
      i++;
    } else if (breaker instanceof Step.Sort s && !s.keys().isEmpty()) {
      List<SortBuffer> partials = Collections.synchronizedList(new ArrayList<>());
      TopNThreshold threshold = topNThreshold(s, i);
      drain(() -> {
        // the buffer compares and copies our compact vectors as they are (Vectors), and its
        // output is copied into Hive's form: a top-N reads a few rows of each batch, not all
        ComputeStage cs = stage(cols, 0, prefix.size()).narrowOutput();
        if (threshold != null) {
          cs.withThreshold(topNField, threshold);
        }
        SortBuffer buf = new SortBuffer(types, s.keys(), s.bound());
        MemoryTracker.Account acct = memory.account();
        partials.add(buf);
        return b -> {
          buf.add(cs.apply(b));
          if (threshold != null) {
            buf.publish(threshold);
          }
          acct.resize(buf.bytes());
          return null;
        };
      }, -1);
      it = of(merge(partials, types, s).result(s.offset(), s.fetch(), batchSize));
      i++;
    } else if (breaker instanceof Step.Sort s) {
      it = limit(scanned(cols, prefix, s.bound()), s.offset(), s.fetch());
      i++;
    } else {
      it = scanned(cols, prefix, -1);
    }
    return rest(it, i);
  }

  /** The remaining steps, from {@code i}, on the caller's thread. */
  private BatchIterator rest(BatchIterator it, int i) throws IOException {
    List<Step> steps = fragment.steps();
    while (i < steps.size()) {
      List<DataType> types = fragment.types().get(i);
      Step s = steps.get(i);
      if (perRow(s)) {
        int j = i;
        while (j < steps.size() && perRow(steps.get(j)) && !spilled.containsKey(steps.get(j))) {
          if (emitsBuildRows(steps.get(j++))) {
            break;
          }
        }
        if (j > i) {
          it = staged(it, stage(null, i, j));
          if (emitsBuildRows(steps.get(j - 1))) {
            it = withBuildRows(it, (Step.HashJoin) steps.get(j - 1), j - 1);
          }
        }
        if (j < steps.size() && spilled.containsKey(steps.get(j))) {
          it = graceJoin(it, j++);
        }
        i = j;
        continue;
      }
      try (BatchIterator in = it) {
        if (s instanceof Step.Aggregate a) {
          if (a.phase() != Step.Phase.COMPLETE) {
            throw new IllegalArgumentException("A " + a.phase() + " aggregate must be the fragment's first breaker");
          }
          HashAggregator h = new HashAggregator(types, a.keys(), a.calls());
          MemoryTracker.Account acct = memory.account();
          Batch b;
          while ((b = next(in)) != null) {
            h.add(b);
            acct.resize(h.bytes());
          }
          it = of(h.result(batchSize));
        } else if (s instanceof Step.Sort sort && !sort.keys().isEmpty()) {
          SortBuffer buf = new SortBuffer(types, sort.keys(), sort.bound());
          MemoryTracker.Account acct = memory.account();
          Batch b;
          while ((b = next(in)) != null) {
            buf.add(b);
            acct.resize(buf.bytes());
          }
          it = of(buf.result(sort.offset(), sort.fetch(), batchSize));
        } else if (s instanceof Step.Sort sort) {
          it = limit(in, sort.offset(), sort.fetch());
          i++;
          continue; // "in" stays open inside the limit
        }
      }
      i++;
    }
    return it;
  }

  /** The output of spilled join step {@code step} over its probe side {@code in}. */
  private BatchIterator graceJoin(BatchIterator in, int step) {
    GraceJoin g = spilled.get(fragment.steps().get(step));
    return g.join(in, fragment.types().get(step), memory, batchSize, cancelCheck);
  }

  /** Deletes the spill files of every spilled join (on a failure before the iterators own them). */
  private void closeSpills() {
    for (GraceJoin g : spilled.values()) {
      try {
        g.close();
      } catch (IOException e) {
        // the failure that brought us here is the one to report
      }
    }
  }

  private static boolean emitsBuildRows(Step s) {
    return s instanceof Step.HashJoin j && j.kind().emitsBuildRows();
  }

  /**
   * {@code in} (which ends with join step {@code step}: FULL, RIGHT, RIGHT_SEMI or RIGHT_ANTI), then
   * that join's build rows (those no probe row matched; RIGHT_SEMI: those matched):
   * listed when {@code in} has ended, so every probe has marked its matches.
   */
  private BatchIterator withBuildRows(BatchIterator in, Step.HashJoin join, int step) {
    List<DataType> probeTypes = fragment.types().get(step);
    return new BatchIterator() {
      private java.util.Iterator<Batch> tail;

      @Override public Batch next() throws IOException {
        if (tail == null) {
          Batch b = in.next();
          if (b != null) {
            return b;
          }
          tail = matches.get(join).output(join.kind(), probeTypes, batchSize).iterator();
        }
        cancelCheck.run();
        return tail.hasNext() ? tail.next() : null;
      }

      @Override public void close() throws IOException {
        in.close();
      }
    };
  }

  private Batch next(BatchIterator in) throws IOException {
    cancelCheck.run();
    return in.next();
  }

  /**
   * Whether the fragment is answered from part metadata without reading rows (COUNT(*), MIN, MAX
   * of the scan's columns, no filter): no reason to spread it over other nodes.
   */
  public static boolean answersFromStatistics(Fragment f, ScanSource scan) {
    if (f.steps().isEmpty() || !(f.steps().get(0) instanceof Step.Aggregate a) || !fromStatistics(a)) {
      return false;
    }
    ScanSource.Statistics stats = scan.statistics();
    return stats != null && answerable(a, stats);
  }

  /** COUNT(*), MIN and MAX without GROUP BY, DISTINCT or FILTER: what part metadata may answer. */
  private static boolean fromStatistics(Step.Aggregate a) {
    return a.keys().length == 0 && a.calls().stream().allMatch(c -> c.filter() < 0 && !c.distinct()
        && (c.function() == AggCall.AggFunction.COUNT ? c.arg() < 0
            : c.function() == AggCall.AggFunction.MIN || c.function() == AggCall.AggFunction.MAX));
  }

  private static boolean answerable(Step.Aggregate a, ScanSource.Statistics stats) {
    return a.calls().stream().allMatch(c -> c.arg() < 0 || stats.known()[c.arg()]);
  }

  /** The one row of COUNT(*)/MIN/MAX from part metadata, without reading data. */
  private static BatchIterator statisticsRow(Step.Aggregate a, ScanSource.Statistics stats, List<DataType> types) {
    ColumnVector[] cols = new ColumnVector[a.calls().size()];
    for (int c = 0; c < cols.length; c++) {
      AggCall call = a.calls().get(c);
      cols[c] = Columns.newVector(types.get(c), 1);
      Object v = call.arg() < 0 ? (Object) stats.rows()
          : call.function() == AggCall.AggFunction.MIN ? stats.min()[call.arg()] : stats.max()[call.arg()];
      Vectors.set(cols[c], types.get(c), 0, v);
    }
    return of(List.of(new Batch(cols, new int[] {0}, 1)));
  }

  /**
   * The dynamic filter of top-N {@code s} (step {@code step}, run by the scan's workers) when its
   * first key is a scan field passed on unchanged and of a type it tests; null otherwise. The
   * scan's PREWHERE tests it first ({@link #prewhere}).
   */
  private TopNThreshold topNThreshold(Step.Sort s, int step) {
    if (!SortBuffer.usesHeap(s.bound()) || s.bound() == 0) {
      return null;
    }
    Step.SortKey first = s.keys().get(0);
    int f = scanField(step, first.field());
    if (f < 0 || !TopNThreshold.supports(fragment.types().get(0).get(f).kind())) {
      return null;
    }
    topN = new TopNThreshold(first, fragment.types().get(0).get(f).kind());
    topNField = f;
    return topN;
  }

  /** Runs the scan to its end; the stages keep what they compute. */
  private void drain(BatchStage.Factory stages, long limit) throws IOException {
    try (BatchIterator s = scan.open(stages, limit, prewhere(), narrowing())) {
      while (s.next() != null) {
        cancelCheck.run();
      }
    }
  }

  /**
   * PREWHERE: a filter right after the scan that reads only some of the scan's columns is also
   * given to the reader, which decodes the other columns only for the rows that pass. The filter
   * step itself still runs (on those rows), so the reader may apply it or not. Runtime filters
   * that test keys run first in it, when the scan reads other columns than their keys, and a
   * top-N's threshold ({@link TopNThreshold}) before them.
   */
  private RowFilter prewhere() {
    RowFilter base = filterPrewhere();
    List<ComputeStage.FieldFilter> keys = keyFilters.stream().filter(k -> k.filter().selective()).toList();
    TopNThreshold threshold = topN;
    if (keys.isEmpty() && threshold == null) {
      return base;
    }
    int[] scanColumns = fragment.scanColumns();
    BitSet read = new BitSet();
    if (base != null) {
      for (int c : base.columns()) {
        read.set(c);
      }
    }
    for (ComputeStage.FieldFilter k : keys) {
      read.set(scanColumns[k.field()]);
    }
    int thresholdColumn = threshold == null ? -1 : scanColumns[topNField];
    if (threshold != null) {
      read.set(thresholdColumn);
    }
    if (read.cardinality() == Arrays.stream(scanColumns).distinct().count()) {
      return base;
    }
    int[] columns = read.stream().toArray();
    return new RowFilter() {
      @Override public int[] columns() {
        return columns;
      }

      @Override public Instance create() {
        Instance after = base == null ? null : base.create();
        KeyFilter.Instance[] tests = keys.stream().map(k -> k.filter().instance()).toArray(KeyFilter.Instance[]::new);
        return (cols, sel, n) -> {
          if (threshold != null) {
            n = threshold.filter(cols[thresholdColumn], sel, n);
          }
          for (int k = 0; k < tests.length && n > 0; k++) {
            n = tests[k].filter(cols[scanColumns[keys.get(k).field()]], sel, n);
          }
          return after == null || n == 0 ? n : after.filter(cols, sel, n);
        };
      }
    };
  }

  /** The PREWHERE of a first step that filters on some of the scan's columns, or null. */
  private RowFilter filterPrewhere() {
    if (fragment.steps().isEmpty() || !(fragment.steps().get(0) instanceof Step.Filter f)) {
      return null;
    }
    int[] scanColumns = fragment.scanColumns();
    BitSet used = new BitSet();
    Expr.collectColumns(f.condition(), used);
    if (used.isEmpty() || used.cardinality() == scanColumns.length) {
      return null;
    }
    int[] fields = used.stream().toArray();
    int[] columns = Arrays.stream(fields).map(i -> scanColumns[i]).toArray();
    return new RowFilter() {
      @Override public int[] columns() {
        return columns;
      }

      @Override public Instance create() {
        VectorExpression e = Evaluators.compile(f.condition());
        ColumnVector[] byField = new ColumnVector[scanColumns.length];
        return (cols, sel, n) -> {
          for (int i = 0; i < fields.length; i++) {
            byField[fields[i]] = cols[columns[i]];
          }
          return n == 0 ? 0 : e.filter(new Batch(byField, sel, n), sel);
        };
      }
    };
  }

  /** The workers' buffers as one: each sorts its own on the pool, then they merge as sorted runs. */
  private SortBuffer merge(List<SortBuffer> partials, List<DataType> types, Step.Sort s) {
    if (partials.isEmpty()) {
      return new SortBuffer(types, s.keys(), s.bound());
    }
    if (partials.size() > 1) {
      scan.workers().run(partials.size(), k -> partials.get(k).prepare(), cancelCheck);
    }
    SortBuffer into = partials.get(0);
    for (int k = 1; k < partials.size(); k++) {
      into.merge(partials.get(k));
    }
    return into;
  }

  /** The scan's batches after the per-row prefix (run in its worker threads). */
  private BatchIterator scanned(int[] cols, List<Step> prefix, long limit) throws IOException {
    BatchIterator s = scan.open(() -> stage(cols, 0, prefix.size()), limit, prewhere(), narrowing());
    return new BatchIterator() {
      @Override public Batch next() throws IOException {
        cancelCheck.run();
        return s.next();
      }

      @Override public void close() throws IOException {
        s.close();
      }
    };
  }

  private static BatchIterator staged(BatchIterator in, ComputeStage stage) {
    return new BatchIterator() {
      @Override public Batch next() throws IOException {
        Batch b;
        while ((b = in.next()) != null) {
          b = stage.apply(b);
          if (b.size() > 0) {
            return b;
          }
        }
        return null;
      }

      @Override public void close() throws IOException {
        in.close();
      }
    };
  }

  /** Skips {@code offset} rows, then passes at most {@code fetch} (-1 = all). */
  static BatchIterator limit(BatchIterator in, long offset, long fetch) {
    return new BatchIterator() {
      long skipped;
      long passed;

      @Override public Batch next() throws IOException {
        while (fetch < 0 || passed < fetch) {
          Batch b = in.next();
          if (b == null) {
            return null;
          }
          int from = (int) Math.min(b.size(), offset - skipped);
          skipped += from;
          int n = b.size() - from;
          if (fetch >= 0) {
            n = (int) Math.min(n, fetch - passed);
          }
          if (n <= 0) {
            continue;
          }
          passed += n;
          return from == 0 ? new Batch(b.cols(), b.sel(), n)
              : new Batch(b.cols(), Arrays.copyOfRange(b.sel(), from, from + n), n);
        }
        return null;
      }

      @Override public void close() throws IOException {
        in.close();
      }
    };
  }

  static BatchIterator of(List<Batch> batches) {
    Iterator<Batch> it = batches.iterator();
    return new BatchIterator() {
      @Override public Batch next() {
        while (it.hasNext()) {
          Batch b = it.next();
          if (b.size() > 0) {
            return b;
          }
        }
        return null;
      }

      @Override public void close() {}
    };
  }
}
