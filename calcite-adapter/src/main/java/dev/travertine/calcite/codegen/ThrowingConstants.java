package dev.travertine.calcite.codegen;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.linq4j.tree.BinaryExpression;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.ExpressionType;
import org.apache.calcite.linq4j.tree.FieldDeclaration;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.NewExpression;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.linq4j.tree.VisitorImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Puts constant divisions back where the generated code uses them. Calcite's code generator
 * moves every constant expression into a static final field, evaluated when the class loads: a
 * constant division by zero then fails before any row is read, also when it sits in a CASE
 * branch no row takes (SQLite and PostgreSQL give NULL there), and it fails as an
 * ExceptionInInitializerError, which JDBC callers see instead of an SQLException. Fields whose
 * value involves a division or remainder are inlined again, so the division runs (and may fail,
 * as an ArithmeticException) only where and when the code reaches it.
 */
final class ThrowingConstants {
  private static final Set<String> DIVIDING_METHODS =
      Set.of("divide", "divideExact", "divideToIntegralValue", "divideAndRemainder", "mod", "remainder",
          "floorDiv", "floorMod");

  private ThrowingConstants() {}

  /** The class with such fields inlined, or the same class when it has none. */
  static ClassDeclaration inline(ClassDeclaration c) {
    List<FieldDeclaration> constants = new ArrayList<>();
    c.accept(new VisitorImpl<Void>() {
      @Override public Void visit(FieldDeclaration f) {
        if ((f.modifier & (Modifier.STATIC | Modifier.FINAL)) == (Modifier.STATIC | Modifier.FINAL)
            && f.initializer != null) {
          constants.add(f);
        }
        return super.visit(f);
      }
    });
    Map<ParameterExpression, Expression> inlined = new IdentityHashMap<>();
    boolean grew = true;
    while (grew) { // a constant computed from an inlined one is inlined too
      grew = false;
      for (FieldDeclaration f : constants) {
        if (!inlined.containsKey(f.parameter) && divides(f.initializer, inlined)) {
          inlined.put(f.parameter, f.initializer);
          grew = true;
        }
      }
    }
    if (inlined.isEmpty()) {
      return c;
    }
    return (ClassDeclaration) c.accept(new Shuttle() {
      @Override public Expression visit(ParameterExpression p) {
        Expression e = inlined.get(p);
        return e == null ? p : e.accept(this);
      }

      @Override public ClassDeclaration visit(ClassDeclaration cd, List<MemberDeclaration> members) {
        return super.visit(cd, without(members));
      }

      @Override public Expression visit(NewExpression n, List<Expression> arguments,
          @Nullable List<MemberDeclaration> members) {
        return super.visit(n, arguments, members == null ? null : without(members));
      }

      private List<MemberDeclaration> without(List<MemberDeclaration> members) {
        List<MemberDeclaration> kept = new ArrayList<>(members.size());
        for (MemberDeclaration m : members) {
          if (!(m instanceof FieldDeclaration f && inlined.containsKey(f.parameter))) {
            kept.add(m);
          }
        }
        return kept;
      }
    });
  }

  private static boolean divides(Expression e, Map<ParameterExpression, Expression> inlined) {
    boolean[] found = new boolean[1];
    e.accept(new VisitorImpl<Void>() {
      @Override public Void visit(BinaryExpression b) {
        ExpressionType t = b.getNodeType();
        if (t == ExpressionType.Divide || t == ExpressionType.DivideChecked || t == ExpressionType.Modulo) {
          found[0] = true;
        }
        return super.visit(b);
      }

      @Override public Void visit(MethodCallExpression m) {
        if (DIVIDING_METHODS.contains(m.method.getName())) {
          found[0] = true;
        }
        return super.visit(m);
      }

      @Override public Void visit(ParameterExpression p) {
        if (inlined.containsKey(p)) {
          found[0] = true;
        }
        return super.visit(p);
      }
    });
    return found[0];
  }
}
