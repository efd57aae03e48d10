package dev.travertine.calcite.codegen;

import dev.travertine.calcite.runtime.TravertineRuntime;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.ConstantExpression;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.FieldDeclaration;
import org.apache.calcite.linq4j.tree.IndexExpression;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.MethodDeclaration;
import org.apache.calcite.linq4j.tree.NewExpression;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.linq4j.tree.VisitorImpl;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.runtime.ArrayBindable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A generated class with its literals taken out, so that queries differing only in their
 * constants ({@code SELECT col1 * 41 …} and {@code SELECT col1 * 17 …}) compile the same source
 * once. Each number, string or decimal constant of the code becomes a field that the class's
 * constructor sets from an {@code Object[]}; the class's fields (Calcite hoists constant
 * expressions into static fields named after the expression) become instance fields set by the
 * constructor after the constants, and static fields of inner classes become instance fields
 * there; all of them are renamed in order. Array indexes stay literal: they are the
 * plan's shape (field positions), not the query's values, and reading them from a field would
 * only cost the hot loop a load. Anonymous {@code AbstractEnumerable}s with just their
 * {@code enumerator()} are made through {@link TravertineRuntime#enumerable} instead, which Janino
 * compiles several times faster.
 *
 * <p>The source is the cache key ({@link CodeCompiler}); {@link #values} are the arguments of
 * the constructor for this query.
 */
record CodeTemplate(String className, String source, Object[] values) {
  private static final String VALUES = "$tv";

  /** Takes the literals out of a generated class. */
  static CodeTemplate of(ClassDeclaration c) {
    Set<ConstantExpression> indexes = Collections.newSetFromMap(new IdentityHashMap<>());
    Map<String, ParameterExpression> renamed = new HashMap<>();
    VisitorImpl<Void> survey = new VisitorImpl<Void>() {
      @Override public Void visit(IndexExpression e) {
        for (Expression i : e.indexExpressions) {
          if (i instanceof ConstantExpression k) {
            indexes.add(k);
          }
        }
        return super.visit(e);
      }

      @Override public Void visit(FieldDeclaration f) {
        if ((f.modifier & Modifier.STATIC) != 0) { // named after its value by Calcite
          // inner classes may each have one of the same name: they share the new name too
          renamed.computeIfAbsent(f.parameter.name,
              n -> new ParameterExpression(0, f.parameter.getType(), "$tf" + renamed.size()));
        }
        return super.visit(f);
      }
    };
    List<FieldDeclaration> fields = new ArrayList<>();
    List<MemberDeclaration> others = new ArrayList<>();
    for (MemberDeclaration m : c.memberDeclarations) {
      if (m instanceof FieldDeclaration f) {
        fields.add(f);
      } else {
        others.add(m);
      }
      if (!(m instanceof ClassDeclaration)) { // nested (static) classes keep their names and literals
        m.accept(survey);
      }
    }
    List<Object> values = new ArrayList<>();
    List<Type> types = new ArrayList<>();
    Shuttle lift = new Shuttle() {
      @Override public ConstantExpression visit(ConstantExpression k) {
        if (indexes.contains(k) || !liftable(k)) {
          return k;
        }
        Slot slot = new Slot("$tc" + values.size());
        values.add(k.value);
        types.add(k.getType());
        return new ConstantExpression(Slot.class, slot);
      }

      @Override public Expression visit(ParameterExpression p) {
        ParameterExpression r = renamed.get(p.name);
        return r == null ? p : r;
      }

      @Override public Expression visit(NewExpression n, List<Expression> arguments,
          @Nullable List<MemberDeclaration> members) {
        if (n.type == AbstractEnumerable.class && arguments.isEmpty() && members != null && members.size() == 1
            && members.get(0) instanceof MethodDeclaration m && m.name.equals("enumerator") && m.parameters.isEmpty()) {
          // the same enumerable, made from a class with one method to check (see TravertineRuntime.enumerable)
          return Expressions.call(TravertineRuntime.class, "enumerable",
              Expressions.new_(TravertineRuntime.EnumeratorSource.class, List.of(), members));
        }
        return super.visit(n, arguments, members);
      }

      @Override public MemberDeclaration visit(FieldDeclaration f, Expression initializer) {
        ParameterExpression r = renamed.get(f.parameter.name);
        if (r == null) {
          return super.visit(f, initializer);
        }
        // a constant of an inner class: an instance field, set when the inner object is made
        return Expressions.fieldDecl(f.modifier & ~Modifier.STATIC,
            new ParameterExpression(0, f.parameter.getType(), r.name), initializer);
      }
    };
    StringBuilder declarations = new StringBuilder();
    StringBuilder constructor = new StringBuilder();
    List<String> assignments = new ArrayList<>();
    for (FieldDeclaration f : fields) {
      Expression init = f.initializer == null ? null : f.initializer.accept(lift);
      ParameterExpression p = new ParameterExpression(0, f.parameter.getType(),
          renamed.getOrDefault(f.parameter.name, f.parameter).name);
      declarations.append(Expressions.toString(Expressions.fieldDecl(Modifier.PRIVATE, p)));
      if (init != null) {
        assignments.add(p.name + " = " + Expressions.toString(init).trim() + ";\n");
      }
    }
    List<MemberDeclaration> members = new ArrayList<>(others.size());
    for (MemberDeclaration m : others) {
      // nested classes (Calcite's records for keys and accumulators) are static: they keep their literals
      members.add(m instanceof ClassDeclaration ? m : m.accept(lift));
    }
    for (int i = 0; i < values.size(); i++) {
      Type t = types.get(i);
      String name = "$tc" + i;
      declarations.append(Expressions.toString(
          Expressions.fieldDecl(Modifier.PRIVATE, new ParameterExpression(0, t, name))));
      Primitive primitive = Primitive.of(t);
      String read = VALUES + "[" + i + "]";
      constructor.append(name).append(" = ").append(primitive != null
          ? "((" + primitive.boxClass.getName() + ") " + read + ")." + primitive.primitiveName + "Value()"
          : "(" + ((Class<?>) t).getName() + ") " + read).append(";\n");
    }
    assignments.forEach(constructor::append);
    String source = "public final class " + c.name + " implements " + ArrayBindable.class.getCanonicalName()
        + " {\n" + declarations
        + "public " + c.name + "(Object[] " + VALUES + ") {\n" + constructor + "}\n"
        + Expressions.toString(members, "\n", false) + "\n}";
    return new CodeTemplate(c.name, source, values.toArray());
  }

  /** Numbers, characters, strings and decimals, typed as themselves (not booleans: dead-code rules). */
  private static boolean liftable(ConstantExpression k) {
    if (k.value == null || !(k.getType() instanceof Class<?> t)) {
      return false;
    }
    Primitive p = Primitive.of(t);
    if (p == null) {
      p = Primitive.ofBox(t);
    }
    if (p != null) {
      return p != Primitive.BOOLEAN && p != Primitive.VOID && p.boxClass.isInstance(k.value);
    }
    return (t == String.class || t == BigDecimal.class) && t.isInstance(k.value);
  }

  /**
   * Stands for a lifted constant in the expression tree; linq4j writes a constant of a class it
   * does not know by its {@code toString}, which is the field's name.
   */
  private static final class Slot {
    private final String name;

    private Slot(String name) {
      this.name = name;
    }

    @Override public String toString() {
      return name;
    }
  }
}
