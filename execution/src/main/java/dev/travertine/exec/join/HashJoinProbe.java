package dev.travertine.exec.join;

import dev.travertine.exec.Columns;
import dev.travertine.exec.expr.Evaluators;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.VectorExpression;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * The probe side of a hash join, one per worker thread over a shared {@link JoinTable}: each batch
 * of the probe side is hashed column by column, its rows' first matches found along the table's
 * chains, and the output built in one of three ways.
 *
 * <ul>
 *   <li>SEMI and ANTI (no residual condition): the probe batch itself with a narrower selection.
 *   <li>INNER and LEFT over a table whose keys are unique (a primary key built): the probe's
 *       vectors stay where they are, the build side's fields are gathered into new vectors at the
 *       probe rows' own positions, and the selection keeps the matched rows (INNER) or all (LEFT,
 *       NULLs where nothing matched). Nothing of the probe side is copied. (INNER where under a
 *       quarter of the batch matches: gathered as below, the vectors as long as the matches.)
 *   <li>Otherwise: the (probe row, build row) pairs are listed and both sides gathered into new
 *       vectors; a residual condition (the join's non-equi part) is evaluated on them and decides
 *       which pairs match.
 * </ul>
 */
public final class HashJoinProbe {
  /** What a row of the probe side gets from the build side. */
  public enum Kind {
    /** Probe row and build row, for every match. */
    INNER,
    /** As INNER, and a probe row without a match once, with NULLs for the build side. */
    LEFT,
    /** The probe row, once, when something matches. */
    SEMI,
    /** The probe row when nothing matches. */
    ANTI,
    /**
     * As LEFT, and every build row that no probe row matched once at the end, with NULLs for the
     * probe's fields: the probes mark what matched ({@link BuildMatches}), the caller emits the rest.
     */
    FULL,
    /**
     * The build row, once, when some probe row matches it: a SEMI join with its sides swapped, so
     * that the smaller side is built (TPC-H Q4's orders, not the lineitem rows of its EXISTS). The
     * probes mark what matched ({@link BuildMatches}) and return no rows; the caller emits the
     * marked build rows once the probe side has ended. Output: the build's fields only.
     */
    RIGHT_SEMI,
    /** As RIGHT_SEMI, the build rows that no probe row matched (an ANTI join with its sides swapped). */
    RIGHT_ANTI,
    /**
     * As INNER, and every build row that no probe row matched once at the end, with NULLs for the
     * probe's fields: a LEFT join with its sides swapped (TPC-H Q13 builds its 150 k customers,
     * not their 1.5 M orders).
     */
    RIGHT;

    /** Whether the join's build rows come out once the probe side has ended (from {@link BuildMatches}). */
    public boolean emitsBuildRows() {
      return this == FULL || this == RIGHT || this == RIGHT_SEMI || this == RIGHT_ANTI;
    }

    /**
     * Whether a probe row without a match yields nothing (so a runtime filter of the build's keys
     * may drop it before the join): INNER, SEMI, RIGHT, RIGHT_SEMI, RIGHT_ANTI.
     */
    public boolean dropsUnmatchedProbeRows() {
      return this != LEFT && this != ANTI && this != FULL;
    }

    /** Whether build rows that no probe row matched are output (FULL, RIGHT, RIGHT_ANTI). */
    public boolean emitsUnmatchedBuildRows() {
      return this == FULL || this == RIGHT || this == RIGHT_ANTI;
    }

    /**
     * Whether its build side may spill (a grace hash join): not for the kinds whose point is to
     * build the smaller side (RIGHT, RIGHT_SEMI, RIGHT_ANTI).
     */
    public boolean spills() {
      return this == FULL || !emitsBuildRows();
    }

    /** Whether the output is the build's fields only (not the probe's, then maybe the build's). */
    public boolean buildFieldsOnly() {
      return this == RIGHT_SEMI || this == RIGHT_ANTI;
    }
  }

  private final Kind kind;
  private final JoinTable table;
  private final List<DataType> probeTypes;
  private final int[] probeKeys;
  private final TypeKind[] keyKinds;
  private final VectorExpression residual;
  private final ColumnVector[] pk;
  /** FULL: where the build rows that matched are marked; else null. */
  private final BuildMatches matches;
  private long[] h = new long[0];
  private boolean[] nul = new boolean[0];
  private int[] hash = new int[0];
  private int[] first = new int[0];
  private int[] pairProbe = new int[1024];
  private int[] pairBuild = new int[1024];
  private int[] pairIndex = new int[1024];
  private int pairs;

  /**
   * @param probeTypes the probe side's field types
   * @param residual over the probe's fields then the build's, or null
   */
  public HashJoinProbe(Kind kind, JoinTable table, List<DataType> probeTypes, int[] probeKeys, Expr residual) {
    this(kind, table, probeTypes, probeKeys, residual, null);
  }

  /** @param matches for FULL (required there): where the matched build rows are marked */
  public HashJoinProbe(Kind kind, JoinTable table, List<DataType> probeTypes, int[] probeKeys, Expr residual,
      BuildMatches matches) {
    if (kind.emitsBuildRows() && matches == null) {
      throw new IllegalArgumentException("A " + kind + " join's probe needs the table's BuildMatches");
    }
    this.matches = matches;
    this.kind = kind;
    this.table = table;
    this.probeTypes = List.copyOf(probeTypes);
    this.probeKeys = probeKeys.clone();
    this.keyKinds = JoinKeys.kinds(probeTypes, probeKeys);
    this.residual = residual == null ? null : Evaluators.compile(residual);
    this.pk = new ColumnVector[probeKeys.length];
  }

  /** The probe side's key fields (read them, never write them). */
  public int[] probeKeys() {
    return probeKeys;
  }

  public Batch apply(Batch b) {
    int n = b.size();
    if (n == 0) {
      return b;
    }
    if (table.chained() == 0) {
      return switch (kind) {
        case INNER, SEMI, RIGHT, RIGHT_SEMI, RIGHT_ANTI -> new Batch(b.cols(), b.sel(), 0);
        case ANTI -> b;
        case LEFT, FULL -> aligned(b, null);
      };
    }
    int[] sel = b.sel();
    findFirst(b);
    if (kind.buildFieldsOnly()) {
      markMatches(b);
      return new Batch(b.cols(), sel, 0); // the build rows come out at the end
    }
    if (residual == null) {
      switch (kind) {
        case SEMI, ANTI -> {
          boolean want = kind == Kind.SEMI;
          int[] out = new int[n];
          int m = 0;
          for (int k = 0; k < n; k++) {
            if ((first[k] >= 0) == want) {
              out[m++] = sel[k];
            }
          }
          return new Batch(b.cols(), out, m);
        }
        default -> {
          if (table.unique()) {
            if (matches != null) { // FULL, RIGHT
              for (int k = 0; k < n; k++) {
                if (first[k] >= 0) {
                  matches.mark(first[k]);
                }
              }
            }
            return kind == Kind.INNER || kind == Kind.RIGHT ? uniqueInner(b) : aligned(b, first);
          }
        }
      }
    }
    boolean outer = kind == Kind.LEFT || kind == Kind.FULL;
    listPairs(b, outer && residual == null);
    Batch joined = gathered(b, pairProbe, pairBuild, pairs);
    if (residual == null) {
      if (matches != null) { // FULL, RIGHT
        for (int i = 0; i < pairs; i++) {
          if (pairBuild[i] >= 0) {
            matches.mark(pairBuild[i]);
          }
        }
      }
      return joined;
    }
    int[] pass = new int[pairs];
    int m = pairs == 0 ? 0 : residual.filter(joined, pass);
    if (kind == Kind.INNER || kind == Kind.RIGHT) {
      for (int i = 0; matches != null && i < m; i++) {
        matches.mark(pairBuild[pass[i]]);
      }
      return new Batch(joined.cols(), pass, m);
    }
    boolean[] matched = new boolean[n];
    for (int i = 0; i < m; i++) {
      matched[pairIndex[pass[i]]] = true;
      if (kind == Kind.FULL) {
        matches.mark(pairBuild[pass[i]]);
      }
    }
    if (!outer) {
      boolean want = kind == Kind.SEMI;
      int[] out = new int[n];
      int c = 0;
      for (int k = 0; k < n; k++) {
        if (matched[k] == want) {
          out[c++] = sel[k];
        }
      }
      return new Batch(b.cols(), out, c);
    }
    // LEFT (and FULL) with a residual: the passing pairs, then each probe row that kept none, once.
    int[] pp = new int[m + n];
    int[] br = new int[m + n];
    int c = 0;
    for (int i = 0; i < m; i++) {
      pp[c] = pairProbe[pass[i]];
      br[c++] = pairBuild[pass[i]];
    }
    for (int k = 0; k < n; k++) {
      if (!matched[k]) {
        pp[c] = sel[k];
        br[c++] = -1;
      }
    }
    return gathered(b, pp, br, c);
  }

  /** RIGHT_SEMI and RIGHT_ANTI: marks every build row that a probe row of {@code b} matches (found by {@link #findFirst}). */
  private void markMatches(Batch b) {
    int n = b.size();
    if (residual == null && table.unique()) {
      for (int k = 0; k < n; k++) {
        if (first[k] >= 0) {
          matches.mark(first[k]);
        }
      }
      return;
    }
    listPairs(b, false);
    if (residual == null) {
      for (int i = 0; i < pairs; i++) {
        matches.mark(pairBuild[i]);
      }
      return;
    }
    if (pairs == 0) {
      return;
    }
    Batch joined = gathered(b, pairProbe, pairBuild, pairs);
    int[] pass = new int[pairs];
    int m = residual.filter(joined, pass);
    for (int i = 0; i < m; i++) {
      matches.mark(pairBuild[pass[i]]);
    }
  }

  /**
   * INNER over unique keys: aligned to the probe batch when most of its rows match, else the few
   * matches gathered into vectors of their own (aligned vectors span the whole batch: a runtime
   * filter that leaves 3 % of a batch would have the build side's fields allocated for all of it).
   */
  private Batch uniqueInner(Batch b) {
    int n = b.size();
    int[] sel = b.sel();
    int m = 0;
    for (int k = 0; k < n; k++) {
      if (first[k] >= 0) {
        m++;
      }
    }
    if ((long) m * 4 >= sel[n - 1] + 1) {
      return aligned(b, first);
    }
    int[] pp = new int[m];
    int[] br = new int[m];
    int c = 0;
    for (int k = 0; k < n; k++) {
      if (first[k] >= 0) {
        pp[c] = sel[k];
        br[c++] = first[k];
      }
    }
    return gathered(b, pp, br, m);
  }

  /** Hashes the selected rows' keys and finds each one's first match ({@code first[k]}, -1: none). */
  private void findFirst(Batch b) {
    int n = b.size();
    int[] sel = b.sel();
    if (h.length < n) {
      int cap = Math.max(n, 1024);
      h = new long[cap];
      nul = new boolean[cap];
      hash = new int[cap];
      first = new int[cap];
    }
    Arrays.fill(h, 0, n, JoinKeys.SEED);
    Arrays.fill(nul, 0, n, false);
    for (int c = 0; c < probeKeys.length; c++) {
      pk[c] = b.cols()[probeKeys[c]];
      JoinKeys.hash(pk[c], keyKinds[c], sel, n, h, nul);
    }
    for (int k = 0; k < n; k++) {
      if (nul[k]) {
        first[k] = -1;
        continue;
      }
      int x = JoinKeys.finish(h[k]);
      hash[k] = x;
      first[k] = table.find(table.head(x), x, pk, sel[k]);
    }
  }

  /** Every (probe position, build row) pair that matches; with {@code outer}, a lone probe row once with -1. */
  private void listPairs(Batch b, boolean outer) {
    int n = b.size();
    int[] sel = b.sel();
    pairs = 0;
    for (int k = 0; k < n; k++) {
      int p = sel[k];
      int row = first[k];
      if (row < 0) {
        if (outer) {
          addPair(p, -1, k);
        }
        continue;
      }
      for (; row >= 0; row = table.find(table.next(row), hash[k], pk, p)) {
        addPair(p, row, k);
      }
    }
  }

  private void addPair(int p, int row, int k) {
    if (pairs == pairProbe.length) {
      int cap = pairs * 2;
      pairProbe = Arrays.copyOf(pairProbe, cap);
      pairBuild = Arrays.copyOf(pairBuild, cap);
      pairIndex = Arrays.copyOf(pairIndex, cap);
    }
    pairProbe[pairs] = p;
    pairBuild[pairs] = row;
    pairIndex[pairs++] = k;
  }

  /** The probe's fields at positions {@code pp}, the build's at rows {@code br}, {@code m} rows. */
  private Batch gathered(Batch b, int[] pp, int[] br, int m) {
    List<DataType> buildTypes = table.types();
    int width = probeTypes.size() + buildTypes.size();
    ColumnVector[] out = new ColumnVector[width];
    for (int c = 0; c < probeTypes.size(); c++) {
      DataType t = probeTypes.get(c);
      out[c] = Columns.gatherTarget(t, m, b.cols()[c]);
      VectorGather.gather(b.cols()[c], t.kind(), pp, m, out[c], 0);
    }
    ColumnVector[] bc = table.cols();
    for (int c = 0; c < buildTypes.size(); c++) {
      DataType t = buildTypes.get(c);
      ColumnVector v = Columns.gatherTarget(t, m, bc[c]);
      VectorGather.gather(bc[c], t.kind(), br, m, v, 0);
      out[probeTypes.size() + c] = v;
    }
    return new Batch(out, Batch.identity(m), m);
  }

  /**
   * The probe batch's own vectors, then the build side's fields gathered at the probe rows'
   * positions: {@code match[k]} is row k's build row (-1 none; {@code match} null: none matches).
   * INNER keeps the matched rows, LEFT all.
   */
  private Batch aligned(Batch b, int[] match) {
    int n = b.size();
    int[] sel = b.sel();
    int width = sel[n - 1] + 1;
    int[] rowAt = new int[width];
    Arrays.fill(rowAt, -1);
    int[] out = kind == Kind.INNER || kind == Kind.RIGHT ? new int[n] : sel;
    int m = 0;
    if (match != null) {
      for (int k = 0; k < n; k++) {
        int r = match[k];
        rowAt[sel[k]] = r;
        if (r >= 0 && out != sel) {
          out[m++] = sel[k];
        }
      }
    }
    if (out == sel) {
      m = n;
    }
    List<DataType> buildTypes = table.types();
    int np = probeTypes.size();
    ColumnVector[] cols = Arrays.copyOf(b.cols(), np + buildTypes.size());
    ColumnVector[] bc = table.cols();
    for (int c = 0; c < buildTypes.size(); c++) {
      DataType t = buildTypes.get(c);
      ColumnVector v = Columns.gatherTarget(t, width, bc[c]);
      if (table.rows() == 0) {
        v.noNulls = false;
        v.isRepeating = true;
        v.isNull[0] = true;
      } else {
        VectorGather.gather(bc[c], t.kind(), rowAt, width, v, 0);
      }
      cols[np + c] = v;
    }
    return new Batch(cols, out, m);
  }
}
