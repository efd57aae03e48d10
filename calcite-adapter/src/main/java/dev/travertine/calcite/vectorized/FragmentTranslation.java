package dev.travertine.calcite.vectorized;

import dev.travertine.exec.op.Fragment;
import dev.travertine.exec.op.Step;
import dev.travertine.vector.DataType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.ImmutableIntList;

/**
 * A vectorized subtree as engine {@link Fragment}s: the chain over the top's scan, then, for each
 * join, the chain of its build side, each with its scan in {@link VectorizedSpec}'s list of
 * sources (the top's first; a join step names its build side's source by position).
 *
 * <p><b>Shared subplans.</b> Where the same aggregate over the same input (equal EXPLAIN text and
 * row types, deterministic expressions) heads two chains — a view or common table expression used twice, as
 * TPC-H Q15's revenue per supplier, joined with the suppliers and compared with its own maximum —
 * the chain up to that aggregate becomes a fragment of its own, run once
 * ({@link VectorizedSpec.Source#shared}), and both chains read its result, the top's own chain too
 * (the spec's {@code mainSource}).
 */
final class FragmentTranslation {
  private final List<VectorizedSpec.Source> sources = new ArrayList<>();
  /** The subtree's EXPLAIN text of each aggregate asked about (it is not cheap: scans count granules). */
  private final Map<RelNode, String> keys = new IdentityHashMap<>();
  /** Signatures ({@link VectorizedAggregate#signature}) of more than one aggregate of the tree. */
  private final Set<String> candidates;
  /** EXPLAIN text of the aggregates that head a shared prefix. */
  private final Set<String> repeated;
  /** Source position of each shared prefix translated so far, by its EXPLAIN text. */
  private final Map<String, Integer> shared = new HashMap<>();

  private FragmentTranslation(RelNode top) {
    Map<String, Integer> signatures = new HashMap<>();
    signatures(top, signatures);
    candidates = moreThanOnce(signatures);
    if (candidates.isEmpty()) {
      repeated = Set.of();
    } else {
      Map<String, Integer> counts = new HashMap<>();
      count(top, counts);
      repeated = moreThanOnce(counts);
    }
  }

  private static Set<String> moreThanOnce(Map<String, Integer> counts) {
    Set<String> out = new HashSet<>();
    counts.forEach((k, n) -> {
      if (n > 1) {
        out.add(k);
      }
    });
    return out;
  }

  /**
   * The spec's fragment and sources for the subtree under {@code top}: sources.get(0) is a table or
   * files scan, the fragment's own scan is source {@code main} (0, or a shared subplan's result).
   */
  record Result(Fragment fragment, List<VectorizedSpec.Source> sources, int main) {}

  static Result translate(RelNode top) {
    FragmentTranslation t = new FragmentTranslation(top);
    Translated f = t.translated(top, Integer.MAX_VALUE);
    return new Result(f.fragment(), List.copyOf(t.sources), f.source());
  }

  /** A fragment and the source position of its scan. */
  private record Translated(Fragment fragment, int source) {}

  /**
   * The fragment of the chain under {@code top}; only aggregates at chain positions below
   * {@code shareBelow} may head a shared prefix (a shared prefix's own head is not shared with
   * itself).
   */
  private Translated translated(RelNode top, int shareBelow) {
    List<RelNode> rels = VectorizedToEnumerable.chain(top);
    int head = -1;
    for (int i = Math.min(rels.size(), shareBelow) - 1; i > 0 && head < 0; i--) {
      if (repeats(rels.get(i))) {
        head = i;
      }
    }
    List<Step> steps = new ArrayList<>();
    List<List<DataType>> types = new ArrayList<>();
    int source;
    int[] scanColumns;
    int from;
    if (head >= 0) {
      source = sharedSource(rels.get(head), head);
      List<DataType> fields = VectorizedRel.engineTypes(rels.get(head).getRowType());
      types.add(fields);
      scanColumns = ImmutableIntList.identity(fields.size()).toIntArray();
      from = head + 1;
    } else {
      VectorizedScan scan = (VectorizedScan) rels.get(0);
      source = sources.size();
      sources.add(scan.logical != null ? new VectorizedSpec.Source(scan.logical.spec(), null)
          : new VectorizedSpec.Source(null, scan.files.spec()));
      types.add(VectorizedRel.engineTypes(scan.getRowType()));
      if (scan.limit() >= 0) {
        // The scan's absorbed LIMIT comes before every operator above it.
        steps.add(new Step.Sort(List.of(), 0, scan.limit()));
        types.add(types.get(0));
      }
      scanColumns = scan.projection();
      from = 1;
    }
    for (RelNode r : rels.subList(from, rels.size())) {
      if (r instanceof VectorizedJoin j) {
        Translated b = translated(j.build(), Integer.MAX_VALUE);
        steps.add(j.step(b.fragment(), b.source()));
      } else {
        steps.add(((VectorizedRel) r).step());
      }
      types.add(VectorizedRel.engineTypes(r.getRowType()));
    }
    return new Translated(new Fragment(scanColumns, steps, types), source);
  }

  /** The source position of the shared prefix headed by {@code aggregate} (chain position {@code head}). */
  private int sharedSource(RelNode aggregate, int head) {
    String k = key(aggregate);
    Integer known = shared.get(k);
    if (known != null) {
      return known;
    }
    Translated prefix = translated(aggregate, head);
    int at = sources.size();
    sources.add(VectorizedSpec.Source.shared(prefix.fragment(), prefix.source()));
    shared.put(k, at);
    return at;
  }

  /** Whether {@code r} is an aggregate that heads a shared prefix. */
  private boolean repeats(RelNode r) {
    return r instanceof VectorizedAggregate a && candidates.contains(a.signature()) && repeated.contains(key(r));
  }

  /**
   * The subtree's EXPLAIN text (attributes, no costs) and the row type of each of its rels: equal
   * text, equal rows.
   */
  private String key(RelNode r) {
    return keys.computeIfAbsent(r, x -> {
      StringBuilder sb = new StringBuilder(RelOptUtil.toString(x, SqlExplainLevel.EXPPLAN_ATTRIBUTES));
      rowTypes(x, sb);
      return sb.toString();
    });
  }

  private static void rowTypes(RelNode r, StringBuilder sb) {
    RelNode rel = VectorizedToEnumerable.resolved(r);
    sb.append(rel.getRowType().getFullTypeString()).append('\n');
    for (RelNode in : rel.getInputs()) {
      rowTypes(in, sb);
    }
  }

  /** Counts the signature of every aggregate of every chain. */
  private static void signatures(RelNode top, Map<String, Integer> counts) {
    for (RelNode r : VectorizedToEnumerable.chain(top)) {
      if (r instanceof VectorizedAggregate a) {
        counts.merge(a.signature(), 1, Integer::sum);
      } else if (r instanceof VectorizedJoin j) {
        signatures(j.build(), counts);
      }
    }
  }

  /**
   * Counts the keys of the deterministic candidate aggregates of every chain. A subtree under a
   * repeat is counted once: it is translated once, inside the shared prefix.
   */
  private void count(RelNode top, Map<String, Integer> counts) {
    List<RelNode> rels = VectorizedToEnumerable.chain(top);
    for (int i = rels.size() - 1; i >= 0; i--) {
      RelNode r = rels.get(i);
      if (r instanceof VectorizedAggregate a && candidates.contains(a.signature()) && deterministic(r)) {
        if (counts.merge(key(r), 1, Integer::sum) > 1) {
          return; // the rest of the chain is this aggregate's input, counted at its first occurrence
        }
      }
      if (r instanceof VectorizedJoin j) {
        count(j.build(), counts);
      }
    }
  }

  /** Whether every expression of the subtree is deterministic (RAND() twice is not one result used twice). */
  private static boolean deterministic(RelNode r) {
    RelNode rel = VectorizedToEnumerable.resolved(r);
    if (rel instanceof VectorizedRel v) {
      for (RexNode e : v.expressions()) {
        if (!RexUtil.isDeterministic(e)) {
          return false;
        }
      }
    }
    for (RelNode in : rel.getInputs()) {
      if (!deterministic(in)) {
        return false;
      }
    }
    return true;
  }
}
