package dev.travertine.exec.op;

import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.join.HashJoinProbe;
import dev.travertine.exec.join.JoinTable;
import dev.travertine.exec.join.KeyFilter;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runtime filters passed sideways into a build side (DuckDB's and ClickHouse's "filters from an
 * earlier join"): when a join's probe key is the key of an earlier INNER or SEMI join of the same
 * chain, every probe row's key is among that join's built keys, so the later join's build rows
 * with other keys can match nothing. Its build fragment may drop them at its scan — through
 * filters, projections, probe fields of its own joins and GROUP BY keys, not past a top-N, whose
 * rows would change. TPC-H Q17: the part keys of {@code Brand#23 / MED BOX} filter the
 * lineitem scan under {@code avg(l_quantity) GROUP BY l_partkey}, about 2,000 of 200,000 parts.
 * A join that returns unmatched build rows (FULL, RIGHT, RIGHT_ANTI) gets none.
 */
final class SidewaysFilters {
  private SidewaysFilters() {}

  /** A filter on an output field of a fragment (a build side's key). */
  record OnOutput(int field, KeyFilter filter) {}

  /**
   * The filters for the build side of join step {@code step} of {@code f}: for each of its probe
   * keys that is the (probe or build) key of an earlier INNER or SEMI join whose table is built
   * ({@code tables} gives null for others), that table's filter on the corresponding build key.
   */
  static List<OnOutput> forBuild(Fragment f, int step, Function<Step.HashJoin, JoinTable> tables) {
    Step.HashJoin join = (Step.HashJoin) f.steps().get(step);
    List<OnOutput> out = new ArrayList<>();
    if (join.kind().emitsUnmatchedBuildRows()) {
      return out;
    }
    for (int c = 0; c < join.probeKeys().length; c++) {
      KeyFilter k = keyOfEarlierJoin(f, step, join.probeKeys()[c], tables);
      if (k != null) {
        out.add(new OnOutput(join.buildKeys()[c], k));
      }
    }
    return out;
  }

  /** The filter of the earlier join whose key {@code field} (of step {@code step}'s input) is, or null. */
  private static KeyFilter keyOfEarlierJoin(Fragment f, int step, int field, Function<Step.HashJoin, JoinTable> tables) {
    for (int k = step - 1; k >= 0 && field >= 0; k--) {
      Step s = f.steps().get(k);
      if (s instanceof Step.Project p) {
        field = p.exprs().get(field) instanceof Expr.Column col ? col.index() : -1;
      } else if (s instanceof Step.HashJoin j) {
        if (j.kind().buildFieldsOnly()) {
          return null; // its output is its build side's fields
        }
        int probeWidth = f.types().get(k).size();
        boolean filtering = j.kind() == HashJoinProbe.Kind.INNER || j.kind() == HashJoinProbe.Kind.SEMI;
        JoinTable t = filtering ? tables.apply(j) : null;
        for (int c = 0; c < j.probeKeys().length && t != null; c++) {
          if (field == j.probeKeys()[c] || field == probeWidth + j.buildKeys()[c]) {
            KeyFilter kf = t.keyFilter(c);
            if (kf != null) {
              return kf;
            }
          }
        }
        if (field >= probeWidth) {
          return null; // a build field of a join that filters nothing on it
        }
      } else if (!(s instanceof Step.Filter)) {
        return null;
      }
    }
    return null;
  }

  /**
   * The scan field whose values output field {@code field} of {@code f} carries (through filters,
   * projections of bare fields, probe fields of joins, GROUP BY keys and plain sorts), or -1.
   */
  static int scanFieldOfOutput(Fragment f, int field) {
    List<Step> steps = f.steps();
    for (int k = steps.size() - 1; k >= 0 && field >= 0; k--) {
      Step s = steps.get(k);
      if (s instanceof Step.Project p) {
        field = p.exprs().get(field) instanceof Expr.Column col ? col.index() : -1;
      } else if (s instanceof Step.HashJoin j) {
        field = !j.kind().buildFieldsOnly() && field < f.types().get(k).size() ? field : -1;
      } else if (s instanceof Step.Aggregate a) {
        field = a.phase() != Step.Phase.FINAL && field < a.keys().length ? a.keys()[field] : -1;
      } else if (s instanceof Step.Sort sort) {
        field = sort.fetch() < 0 && sort.offset() == 0 ? field : -1;
      } else if (!(s instanceof Step.Filter)) {
        return -1;
      }
    }
    return field;
  }

  /** Whether a runtime filter tests fields of this type (integers, dates and strings). */
  static boolean filterable(DataType t) {
    TypeKind k = t.kind();
    return k.isLongBacked() || k == TypeKind.CHAR || k == TypeKind.VARCHAR;
  }
}
