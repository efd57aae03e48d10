package dev.travertine.calcite.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Rewrites of GROUP BY that the vectorized engine gains from, applied to the logical tree before
 * cost-based planning (each keeps the aggregate's row type exactly, or is not applied):
 *
 * <ul>
 *   <li><b>Keys that follow from other keys</b> are computed after aggregating instead of being
 *       hashed: in {@code GROUP BY ClientIP, ClientIP - 1}, the second key is a deterministic
 *       function of the first, so the groups are those of {@code ClientIP} alone (ClickHouse's
 *       {@code optimize_group_by_function_keys}). A constant key goes the same way while another
 *       key remains.
 *   <li><b>{@code SUM(x + c)}</b> for an integer constant c is {@code SUM(x) + c * COUNT(x)}, and
 *       every {@code SUM(x + c)} shares the one {@code SUM(x)} and {@code COUNT(x)} (DuckDB's sum
 *       rewrite, ClickHouse's {@code optimize_arithmetic_operations_in_aggregate_functions}).
 *       Only where no row's {@code x + c} can overflow its type, or where the type is BIGINT (then
 *       both sides wrap alike).
 * </ul>
 */
final class AggregateRewrites {
  private AggregateRewrites() {}

  static RelNode apply(RelNode root) {
    return root.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        RelNode r = super.visit(other);
        return r instanceof LogicalAggregate a ? rewrite(a) : r;
      }
    });
  }

  static RelNode rewrite(LogicalAggregate a) {
    if (a.getGroupType() != Aggregate.Group.SIMPLE || !(a.getInput() instanceof LogicalProject)
        || a.getAggCallList().stream().anyMatch(c -> c.getAggregation().getKind() == SqlKind.GROUPING
            || c.getAggregation().getKind() == SqlKind.GROUP_ID || c.getAggregation().getKind() == SqlKind.GROUPING_ID)) {
      return a; // GROUPING(k) refers to the group keys as they are
    }
    RelNode keys = dependentKeys(a);
    LogicalAggregate inner = keys instanceof LogicalProject p ? (LogicalAggregate) p.getInput() : a;
    RelNode sums = shiftedSums(inner);
    RelNode out = keys instanceof LogicalProject p && sums != inner ? p.copy(p.getTraitSet(), List.of(sums))
        : keys != a ? keys : sums;
    return RelOptUtil.areRowTypesEqual(out.getRowType(), a.getRowType(), false) ? out : a;
  }

  // ---- keys that follow from other keys

  private static RelNode dependentKeys(LogicalAggregate a) {
    LogicalProject p = (LogicalProject) a.getInput();
    List<RexNode> exprs = p.getProjects();
    ImmutableBitSet groups = a.getGroupSet();
    Map<Integer, Integer> keyOfRef = new HashMap<>(); // input field -> a key that is that field
    for (int f : groups) {
      if (exprs.get(f) instanceof RexInputRef r) {
        keyOfRef.putIfAbsent(r.getIndex(), f);
      }
    }
    ImmutableBitSet.Builder kept = ImmutableBitSet.builder();
    for (int f : groups) {
      RexNode e = exprs.get(f);
      // (A window function is "deterministic" to Calcite but not a function of its row.)
      boolean dependent = !(e instanceof RexInputRef) && RexUtil.isDeterministic(e) && !RexOver.containsOver(e)
          && keyOfRef.keySet().containsAll(RelOptUtil.InputFinder.bits(e).asList());
      if (!dependent) {
        kept.set(f);
      }
    }
    ImmutableBitSet keep = kept.build();
    if (keep.cardinality() == groups.cardinality() || keep.isEmpty()) {
      return a; // nothing follows, or nothing would be left to group by
    }
    LogicalAggregate inner = LogicalAggregate.create(p, a.getHints(), keep, null, a.getAggCallList());
    RexBuilder rex = a.getCluster().getRexBuilder();
    List<RexNode> top = new ArrayList<>();
    for (int f : groups) {
      if (keep.get(f)) {
        top.add(RexInputRef.of(keep.indexOf(f), inner.getRowType()));
      } else {
        top.add(exprs.get(f).accept(new RexShuttle() {
          @Override public RexNode visitInputRef(RexInputRef ref) {
            return RexInputRef.of(keep.indexOf(keyOfRef.get(ref.getIndex())), inner.getRowType());
          }
        }));
      }
    }
    for (int i = 0; i < a.getAggCallList().size(); i++) {
      top.add(RexInputRef.of(keep.cardinality() + i, inner.getRowType()));
    }
    return LogicalProject.create(inner, List.of(), top, a.getRowType().getFieldNames(), Set.of());
  }

  // ---- SUM(x + c)

  /** {@code x + c} (or {@code c + x}, {@code x - c}) of an integer column x and constant c. */
  private record Shifted(int field, RelDataType fieldType, long shift) {}

  private static Shifted shifted(RexNode e) {
    if (!(e instanceof RexCall call) || (e.getKind() != SqlKind.PLUS && e.getKind() != SqlKind.MINUS)
        || !isInteger(e.getType())) {
      return null;
    }
    RexNode l = call.getOperands().get(0);
    RexNode r = call.getOperands().get(1);
    if (e.getKind() == SqlKind.PLUS && l instanceof RexLiteral) {
      RexNode t = l;
      l = r;
      r = t;
    }
    l = widening(l);
    if (!(l instanceof RexInputRef ref) || !isInteger(ref.getType()) || !(r instanceof RexLiteral lit)) {
      return null;
    }
    BigDecimal c = lit.getValueAs(BigDecimal.class);
    if (c == null || c.scale() > 0 && c.stripTrailingZeros().scale() > 0) {
      return null;
    }
    long shift = c.longValueExact();
    if (e.getKind() == SqlKind.MINUS) {
      if (shift == Long.MIN_VALUE) {
        return null;
      }
      shift = -shift;
    }
    SqlTypeName out = e.getType().getSqlTypeName();
    if (out != SqlTypeName.BIGINT) {
      // Every value of x shifted by c must fit the type of x + c: then no row overflows.
      long[] in = range(ref.getType().getSqlTypeName());
      long[] to = range(out);
      if (in[0] + shift < to[0] || in[1] + shift > to[1]) {
        return null;
      }
    }
    return new Shifted(ref.getIndex(), ref.getType(), shift);
  }

  /** The operand inside a CAST from one integer type to a wider one. */
  private static RexNode widening(RexNode e) {
    if (e.getKind() == SqlKind.CAST && e instanceof RexCall c && isInteger(e.getType())) {
      RexNode in = c.getOperands().get(0);
      long[] from = isInteger(in.getType()) ? range(in.getType().getSqlTypeName()) : null;
      long[] to = range(e.getType().getSqlTypeName());
      if (from != null && from[0] >= to[0] && from[1] <= to[1]) {
        return in;
      }
    }
    return e;
  }

  private static boolean isInteger(RelDataType t) {
    return switch (t.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
      default -> false;
    };
  }

  private static long[] range(SqlTypeName t) {
    return switch (t) {
      case TINYINT -> new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE};
      case SMALLINT -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
      case INTEGER -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      default -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
    };
  }

  private static RelNode shiftedSums(LogicalAggregate a) {
    LogicalProject p = (LogicalProject) a.getInput();
    List<RexNode> exprs = new ArrayList<>(p.getProjects());
    List<String> names = new ArrayList<>(p.getRowType().getFieldNames());
    List<AggregateCall> calls = a.getAggCallList();
    Shifted[] shifted = new Shifted[calls.size()];
    boolean any = false;
    for (int i = 0; i < calls.size(); i++) {
      AggregateCall c = calls.get(i);
      boolean sum = c.getAggregation().getKind() == SqlKind.SUM || c.getAggregation().getKind() == SqlKind.SUM0;
      if (sum && !c.isDistinct() && c.getArgList().size() == 1 && c.distinctKeys == null
          && c.collation.getFieldCollations().isEmpty()) {
        shifted[i] = shifted(exprs.get(c.getArgList().get(0)));
        any |= shifted[i] != null;
      }
    }
    if (!any) {
      return a;
    }
    RexBuilder rex = a.getCluster().getRexBuilder();
    Map<RexNode, Integer> fieldOf = new HashMap<>();
    for (int f = 0; f < exprs.size(); f++) {
      fieldOf.putIfAbsent(exprs.get(f), f);
    }
    // The new input: the old one, and each shifted column x where no field is x already.
    for (Shifted s : shifted) {
      if (s != null) {
        RexNode x = new RexInputRef(s.field(), s.fieldType());
        if (!fieldOf.containsKey(x)) {
          fieldOf.put(x, exprs.size());
          exprs.add(x);
          names.add("$x" + s.field());
        }
      }
    }
    LogicalProject input = LogicalProject.create(p.getInput(), p.getHints(), exprs, names, p.getVariablesSet());
    int groupCount = a.getGroupCount();
    Map<List<Object>, Integer> callIndex = new LinkedHashMap<>();
    List<AggregateCall> newCalls = new ArrayList<>();
    int[] plain = new int[calls.size()];
    int[] sumOf = new int[calls.size()];
    int[] countOf = new int[calls.size()];
    for (int i = 0; i < calls.size(); i++) {
      AggregateCall c = calls.get(i);
      if (shifted[i] == null) {
        plain[i] = groupCount + newCalls.size();
        newCalls.add(c);
        continue;
      }
      int x = fieldOf.get(new RexInputRef(shifted[i].field(), shifted[i].fieldType()));
      sumOf[i] = groupCount + callIndex.computeIfAbsent(List.of(c.getAggregation().getKind(), x, c.filterArg), k -> {
        newCalls.add(AggregateCall.create(c.getAggregation(), false, false, false, List.of(), List.of(x), c.filterArg,
            null, RelCollations.EMPTY, groupCount, input, null, null));
        return newCalls.size() - 1;
      });
      countOf[i] = groupCount + callIndex.computeIfAbsent(List.of(SqlKind.COUNT, x, c.filterArg), k -> {
        newCalls.add(AggregateCall.create(SqlStdOperatorTable.COUNT, false, false, false, List.of(), List.of(x),
            c.filterArg, null, RelCollations.EMPTY, groupCount, input, null, null));
        return newCalls.size() - 1;
      });
    }
    LogicalAggregate inner = LogicalAggregate.create(input, a.getHints(), a.getGroupSet(), null, newCalls);
    RelDataType row = inner.getRowType();
    List<RexNode> top = new ArrayList<>();
    for (int k = 0; k < groupCount; k++) {
      top.add(RexInputRef.of(k, row));
    }
    for (int i = 0; i < calls.size(); i++) {
      if (shifted[i] == null) {
        top.add(RexInputRef.of(plain[i], row));
        continue;
      }
      RelDataType type = calls.get(i).getType();
      RelDataType constant = a.getCluster().getTypeFactory().createTypeWithNullability(type, false);
      RexNode sum = rex.ensureType(type, RexInputRef.of(sumOf[i], row), true);
      RexNode times = rex.makeCall(SqlStdOperatorTable.MULTIPLY,
          rex.makeExactLiteral(BigDecimal.valueOf(shifted[i].shift()), constant),
          rex.ensureType(type, RexInputRef.of(countOf[i], row), true));
      top.add(rex.ensureType(type, rex.makeCall(SqlStdOperatorTable.PLUS, sum, times), true));
    }
    return LogicalProject.create(inner, List.of(), top, a.getRowType().getFieldNames(), Set.of());
  }
}
