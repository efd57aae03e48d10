package dev.travertine.calcite;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.StringReader;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.calcite.adapter.enumerable.EnumerableInterpretable;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.FieldDeclaration;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.runtime.ArrayBindable;
import org.codehaus.janino.ClassLoaderIClassLoader;
import org.codehaus.janino.IClassLoader;
import org.codehaus.janino.Java;
import org.codehaus.janino.Parser;
import org.codehaus.janino.Scanner;
import org.codehaus.janino.UnitCompiler;
import org.codehaus.janino.util.ClassFile;

/**
 * Compiles the Java code Calcite generates for a plan, cheaper than Calcite's own path
 * ({@code EnumerableInterpretable.getBindable}), which builds a new Janino class loader for
 * every query: Janino then re-reflects every JDK and Calcite class the code touches and asks
 * the application class loader again for every name it resolves (most of them misses that scan
 * every jar). Here Janino's class loaders are kept and reused (one per concurrent compilation),
 * so each class is reflected once per loader and misses are remembered; and compiled code
 * without static fields is shared by all connections, keyed by its source (two queries that
 * differ only in what was stashed, or the same SQL from another connection, compile once).
 *
 * <p>Plugged in as Calcite's "Spark handler" (the one hook Calcite offers around code
 * compilation): {@link #enabled()} is true and every other method is the trivial handler's.
 */
final class CodeCompiler implements CalcitePrepare.SparkHandler {
  static final CodeCompiler INSTANCE = new CodeCompiler();

  private static final ClassLoader PARENT = EnumerableInterpretable.class.getClassLoader();

  private final ConcurrentLinkedQueue<IClassLoader> idle = new ConcurrentLinkedQueue<>();
  private final Cache<String, ArrayBindable> compiled = Caffeine.newBuilder().maximumSize(2048).build();

  private CodeCompiler() {}

  @Override public ArrayBindable compile(ClassDeclaration expr, String body) {
    ClassDeclaration safe = ThrowingConstants.inline(expr);
    if (safe != expr) {
      expr = safe;
      body = Expressions.toString(expr.memberDeclarations, "\n", false); // as Calcite writes it
    }
    boolean shareable = true;
    for (MemberDeclaration m : expr.memberDeclarations) {
      if (m instanceof FieldDeclaration f && (f.modifier & Modifier.STATIC) != 0) {
        shareable = false; // state of one query's code
      }
    }
    String source = "public final class " + expr.name + " implements " + ArrayBindable.class.getCanonicalName()
        + " {\n" + body + "\n}";
    String className = expr.name;
    if (!shareable) {
      return compile(className, source);
    }
    return compiled.get(source, s -> compile(className, s));
  }

  private ArrayBindable compile(String className, String source) {
    IClassLoader icl = idle.poll();
    if (icl == null) {
      icl = new ClassLoaderIClassLoader(PARENT);
    }
    boolean healthy = false;
    try {
      Java.AbstractCompilationUnit unit = new Parser(new Scanner(null, new StringReader(source)))
          .parseAbstractCompilationUnit();
      List<ClassFile> files = new ArrayList<>();
      new UnitCompiler(unit, icl).compileUnit(false, false, false, files);
      Map<String, byte[]> classes = new HashMap<>();
      for (ClassFile f : files) {
        classes.put(f.getThisClassName(), f.toByteArray());
      }
      ClassLoader loader = new GeneratedClassLoader(classes, PARENT);
      Object bindable = loader.loadClass(className).getDeclaredConstructors()[0].newInstance();
      healthy = true;
      return (ArrayBindable) bindable;
    } catch (Exception e) {
      throw new IllegalStateException("Error while compiling generated Java code:\n" + source, e);
    } finally {
      if (healthy) {
        idle.add(icl); // a loader that saw a failure is dropped, in case it kept half a state
      }
    }
  }

  /**
   * Defines the generated classes, looking them up before asking the parent: parent-first (as
   * Janino's own loader does) would search the whole class path for "Baz", "Baz$1", … every time.
   */
  private static final class GeneratedClassLoader extends ClassLoader {
    private final Map<String, byte[]> classes;

    GeneratedClassLoader(Map<String, byte[]> classes, ClassLoader parent) {
      super(parent);
      this.classes = classes;
    }

    @Override protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      byte[] bytes = classes.get(name);
      if (bytes == null) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = defineClass(name, bytes, 0, bytes.length);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }

  @Override public boolean enabled() {
    return true;
  }

  @Override public RelNode flattenTypes(RelOptPlanner planner, RelNode rootRel, boolean restructure) {
    return rootRel;
  }

  @Override public void registerRules(RuleSetBuilder builder) {
  }

  @Override public Object sparkContext() {
    throw new UnsupportedOperationException();
  }

  /** A prepare context that compiles with {@link #INSTANCE}. */
  static CalcitePrepare.Context wrap(CalcitePrepare.Context c) {
    return new CalcitePrepare.Context() {
      @Override public org.apache.calcite.adapter.java.JavaTypeFactory getTypeFactory() {
        return c.getTypeFactory();
      }

      @Override public org.apache.calcite.jdbc.CalciteSchema getRootSchema() {
        return c.getRootSchema();
      }

      @Override public org.apache.calcite.jdbc.CalciteSchema getMutableRootSchema() {
        return c.getMutableRootSchema();
      }

      @Override public List<String> getDefaultSchemaPath() {
        return c.getDefaultSchemaPath();
      }

      @Override public org.apache.calcite.config.CalciteConnectionConfig config() {
        return c.config();
      }

      @Override public CalcitePrepare.SparkHandler spark() {
        return INSTANCE;
      }

      @Override public org.apache.calcite.DataContext getDataContext() {
        return c.getDataContext();
      }

      @Override public List<String> getObjectPath() {
        return c.getObjectPath();
      }

      @Override public org.apache.calcite.tools.RelRunner getRelRunner() {
        return c.getRelRunner();
      }
    };
  }
}
