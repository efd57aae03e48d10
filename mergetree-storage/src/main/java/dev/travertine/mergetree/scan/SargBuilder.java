package dev.travertine.mergetree.scan;

import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import java.math.BigDecimal;
import java.time.LocalDate;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/**
 * Translates a {@link Predicate} into an ORC SearchArgument, so ORC skips the row groups
 * (= our granules) the predicate excludes. Leaves ORC can't judge safely (TIMESTAMP, DECIMAL of
 * up to 18 digits, odd column names) become "maybe", which keeps the translation conservative.
 */
final class SargBuilder {
  private SargBuilder() {}

  static SearchArgument build(Predicate p, TableSchema schema) {
    SearchArgument.Builder b = SearchArgumentFactory.newBuilder();
    b.startAnd();
    add(b, p, schema);
    b.end();
    return b.build();
  }

  private static void add(SearchArgument.Builder b, Predicate p, TableSchema schema) {
    if (p instanceof Predicate.Pruning r) {
      add(b, r.condition(), schema);
    } else if (p instanceof Predicate.And a) {
      b.startAnd();
      a.children().forEach(c -> add(b, c, schema));
      b.end();
    } else if (p instanceof Predicate.Or o) {
      b.startOr();
      o.children().forEach(c -> add(b, c, schema));
      b.end();
    } else if (p instanceof Predicate.IsNull n) {
      PredicateLeaf.Type t = leafType(schema, n.column());
      if (t == null) {
        maybe(b);
      } else if (n.negated()) {
        b.startNot().isNull(name(schema, n.column()), t).end();
      } else {
        b.isNull(name(schema, n.column()), t);
      }
    } else if (p instanceof Predicate.In in) {
      PredicateLeaf.Type t = leafType(schema, in.column());
      if (t == null) {
        maybe(b);
      } else if (in.values().isEmpty()) {
        b.literal(SearchArgument.TruthValue.NO); // matches no row
      } else {
        DataType dt = schema.column(in.column()).type();
        Object[] lits = in.values().stream().map(v -> literal(dt, v)).toArray();
        b.in(name(schema, in.column()), t, lits);
      }
    } else if (p instanceof Predicate.Compare c) {
      PredicateLeaf.Type t = leafType(schema, c.column());
      if (t == null) {
        maybe(b);
        return;
      }
      String col = name(schema, c.column());
      Object lit = literal(schema.column(c.column()).type(), c.value());
      switch (c.op()) {
        case EQ -> b.equals(col, t, lit);
        case NE -> b.startNot().equals(col, t, lit).end();
        case LT -> b.lessThan(col, t, lit);
        case LE -> b.lessThanEquals(col, t, lit);
        case GT -> b.startNot().lessThanEquals(col, t, lit).end();
        case GE -> b.startNot().lessThan(col, t, lit).end();
        default -> throw new AssertionError(c.op());
      }
    } else {
      maybe(b);
    }
  }

  private static void maybe(SearchArgument.Builder b) {
    b.literal(SearchArgument.TruthValue.YES_NO_NULL);
  }

  private static String name(TableSchema schema, int c) {
    return schema.column(c).storage();
  }

  private static PredicateLeaf.Type leafType(TableSchema schema, int c) {
    if (!schema.column(c).storage().matches("[A-Za-z_][A-Za-z0-9_]*")) {
      return null;
    }
    return switch (schema.column(c).type().kind()) {
      case BOOLEAN -> PredicateLeaf.Type.BOOLEAN;
      case TINYINT, SMALLINT, INTEGER, BIGINT -> PredicateLeaf.Type.LONG;
      case REAL, DOUBLE -> PredicateLeaf.Type.FLOAT;
      // up to 18 digits, parts of format 2 store the scaled value, whose ORC statistics a decimal
      // literal would be compared with as if it were the value: the granule index prunes those
      case DECIMAL -> OrcTypes.storesScaled(OrcTypes.CURRENT_FORMAT, schema.column(c).type().precision())
          ? null : PredicateLeaf.Type.DECIMAL;
      case CHAR, VARCHAR -> PredicateLeaf.Type.STRING;
      case DATE -> PredicateLeaf.Type.DATE;
      case TIMESTAMP -> null;
    };
  }

  private static Object literal(DataType t, Object v) {
    return switch (t.kind()) {
      case BOOLEAN -> ((Number) v).longValue() != 0;
      case TINYINT, SMALLINT, INTEGER, BIGINT -> ((Number) v).longValue();
      case REAL, DOUBLE -> ((Number) v).doubleValue();
      case DECIMAL -> new HiveDecimalWritable(org.apache.hadoop.hive.common.type.HiveDecimal.create((BigDecimal) v));
      case CHAR, VARCHAR -> v.toString();
      case DATE -> java.sql.Date.valueOf(LocalDate.ofEpochDay(((Number) v).longValue()));
      case TIMESTAMP -> throw new AssertionError();
    };
  }
}
