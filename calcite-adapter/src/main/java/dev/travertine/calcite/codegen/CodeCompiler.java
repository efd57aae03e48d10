package dev.travertine.calcite.codegen;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.StringReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles the Java code Calcite generates for a plan, cheaper than Calcite's own path
 * ({@code EnumerableInterpretable.getBindable}), which builds a new Janino class loader for
 * every query: Janino then re-reflects every JDK and Calcite class the code touches and asks
 * the application class loader again for every name it resolves (most of them misses that scan
 * every jar). Here Janino's class loaders are kept and reused (one per concurrent compilation),
 * so each class is reflected once per loader and misses are remembered; and the code is
 * compiled as a {@link CodeTemplate}, its literals taken out into constructor arguments, so
 * that queries differing only in their constants (or only in what was stashed, or the same SQL
 * from another connection) compile once and share the class. Code whose template does not
 * compile is compiled as written (shared by source when it has no static fields).
 *
 * <p>Plugged in as Calcite's "Spark handler" (the one hook Calcite offers around code
 * compilation): {@link #enabled()} is true and every other method is the trivial handler's.
 */
public final class CodeCompiler implements CalcitePrepare.SparkHandler {
  static final CodeCompiler INSTANCE = new CodeCompiler();
  private static final Logger LOG = LoggerFactory.getLogger(CodeCompiler.class);

  private static final ClassLoader PARENT = EnumerableInterpretable.class.getClassLoader();

  private final ConcurrentLinkedQueue<IClassLoader> idle = new ConcurrentLinkedQueue<>();
  private final java.util.concurrent.atomic.AtomicLong compilations = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong untemplated = new java.util.concurrent.atomic.AtomicLong();
  private final Cache<String, ArrayBindable> compiled = Caffeine.newBuilder().maximumSize(2048).build();
  private final Cache<String, Optional<Constructor<?>>> templates = Caffeine.newBuilder().maximumSize(4096).build();

  private CodeCompiler() {}

  @Override public ArrayBindable compile(ClassDeclaration expr, String body) {
    ClassDeclaration safe = ThrowingConstants.inline(expr);
    if (safe != expr) {
      expr = safe;
      body = Expressions.toString(expr.memberDeclarations, "\n", false); // as Calcite writes it
    }
    CodeTemplate template = CodeTemplate.of(expr);
    Optional<Constructor<?>> made = templates.get(template.source(),
        s -> Optional.ofNullable(compileTemplate(template.className(), s)));
    if (made.isPresent()) {
      return instantiate(made.get(), template.values());
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

  /** The template's constructor, or null when it does not compile (the code is then compiled as written). */
  private Constructor<?> compileTemplate(String className, String source) {
    try {
      return load(className, source).getConstructor(Object[].class);
    } catch (RuntimeException | NoSuchMethodException e) {
      untemplated.incrementAndGet(); // costs a second compilation: tests watch this stays 0
      LOG.debug("Generated code compiled without lifting its constants: {}", e.toString());
      return null;
    }
  }

  private static ArrayBindable instantiate(Constructor<?> constructor, Object[] values) {
    try {
      return (ArrayBindable) constructor.newInstance((Object) values);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r; // a constant expression that fails when evaluated, as it would have in a static initialiser
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("Error while instantiating generated code", e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Error while instantiating generated code", e);
    }
  }

  private ArrayBindable compile(String className, String source) {
    try {
      return (ArrayBindable) load(className, source).getDeclaredConstructors()[0].newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Error while compiling generated Java code:\n" + source, e);
    }
  }

  /** How many templates did not compile (their code was compiled as written), for tests. */
  long untemplated() {
    return untemplated.get();
  }

  /** How many classes were compiled since the process started (for tests). */
  long compilations() {
    return compilations.get();
  }

  /** Compiles a class with one of the idle Janino loaders and defines it in a loader of its own. */
  private Class<?> load(String className, String source) {
    compilations.incrementAndGet();
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
      Class<?> c = new GeneratedClassLoader(classes, PARENT).loadClass(className);
      healthy = true;
      return c;
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
  public static CalcitePrepare.Context wrap(CalcitePrepare.Context c) {
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
