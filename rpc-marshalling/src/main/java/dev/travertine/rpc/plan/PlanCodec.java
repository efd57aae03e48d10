package dev.travertine.rpc.plan;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.Op;
import dev.travertine.exec.op.Fragment;
import dev.travertine.exec.op.Step;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of what a replica runs: fragments (steps, expressions, aggregate calls), pushed
 * predicates, types and constant values (docs/design/exchange.md, "Fragment request"). Enums go
 * by name, not ordinal, so that adding a member changes no other's code; every list is counted
 * first. A value that cannot be read (truncated, an unknown name or tag) is an
 * {@link IOException} naming it.
 */
public final class PlanCodec {
  private PlanCodec() {}

  private static final int MAX_COUNT = 1 << 20;

  // ------------------------------------------------------------------ primitives

  public static void writeString(DataOutputStream out, String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  public static String readString(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n == -1) {
      return null;
    }
    if (n < 0 || n > in.available()) {
      throw new IOException("A string of " + n + " bytes where " + in.available() + " remain");
    }
    return new String(in.readNBytes(n), StandardCharsets.UTF_8);
  }

  public static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  public static byte[] readBytes(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > in.available()) {
      throw new IOException("A field of " + n + " bytes where " + in.available() + " remain");
    }
    return in.readNBytes(n);
  }

  static int count(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_COUNT) {
      throw new IOException("A list of " + n + " entries");
    }
    return n;
  }

  public static void writeInts(DataOutputStream out, int[] a) throws IOException {
    out.writeInt(a.length);
    for (int x : a) {
      out.writeInt(x);
    }
  }

  public static int[] readInts(DataInputStream in) throws IOException {
    int[] a = new int[count(in)];
    for (int i = 0; i < a.length; i++) {
      a[i] = in.readInt();
    }
    return a;
  }

  static <E extends Enum<E>> E readEnum(DataInputStream in, Class<E> type) throws IOException {
    String name = readString(in);
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IOException("Unknown " + type.getSimpleName() + " '" + name + "'");
    }
  }

  // ------------------------------------------------------------------ types and values

  public static void writeType(DataOutputStream out, DataType t) throws IOException {
    writeString(out, t.kind().name());
    out.writeInt(t.precision());
    out.writeInt(t.scale());
  }

  public static DataType readType(DataInputStream in) throws IOException {
    TypeKind k = readEnum(in, TypeKind.class);
    int p = in.readInt();
    int s = in.readInt();
    try {
      return new DataType(k, p, s);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
  }

  public static void writeTypes(DataOutputStream out, List<DataType> types) throws IOException {
    out.writeInt(types.size());
    for (DataType t : types) {
      writeType(out, t);
    }
  }

  public static List<DataType> readTypes(DataInputStream in) throws IOException {
    int n = count(in);
    List<DataType> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(readType(in));
    }
    return out;
  }

  /** Value tags: the Java classes of the engine's value representation. */
  private static final int NULL = 0;
  private static final int BOOLEAN = 1;
  private static final int BYTE = 2;
  private static final int SHORT = 3;
  private static final int INT = 4;
  private static final int LONG = 5;
  private static final int FLOAT = 6;
  private static final int DOUBLE = 7;
  private static final int DECIMAL = 8;
  private static final int STRING = 9;

  /** A constant of the engine's value representation ({@link Expr} lists the classes), or null. */
  public static void writeValue(DataOutputStream out, Object v) throws IOException {
    if (v == null) {
      out.writeByte(NULL);
    } else if (v instanceof Boolean b) {
      out.writeByte(BOOLEAN);
      out.writeBoolean(b);
    } else if (v instanceof Byte b) {
      out.writeByte(BYTE);
      out.writeByte(b);
    } else if (v instanceof Short s) {
      out.writeByte(SHORT);
      out.writeShort(s);
    } else if (v instanceof Integer i) {
      out.writeByte(INT);
      out.writeInt(i);
    } else if (v instanceof Long l) {
      out.writeByte(LONG);
      out.writeLong(l);
    } else if (v instanceof Float f) {
      out.writeByte(FLOAT);
      out.writeFloat(f);
    } else if (v instanceof Double d) {
      out.writeByte(DOUBLE);
      out.writeDouble(d);
    } else if (v instanceof BigDecimal d) {
      out.writeByte(DECIMAL);
      out.writeInt(d.scale());
      writeBytes(out, d.unscaledValue().toByteArray());
    } else if (v instanceof String s) {
      out.writeByte(STRING);
      writeString(out, s);
    } else {
      throw new IllegalArgumentException("No wire form for a constant of " + v.getClass().getName());
    }
  }

  public static Object readValue(DataInputStream in) throws IOException {
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case NULL -> null;
      case BOOLEAN -> in.readBoolean();
      case BYTE -> in.readByte();
      case SHORT -> in.readShort();
      case INT -> in.readInt();
      case LONG -> in.readLong();
      case FLOAT -> in.readFloat();
      case DOUBLE -> in.readDouble();
      case DECIMAL -> {
        int scale = in.readInt();
        byte[] unscaled = readBytes(in);
        if (unscaled.length == 0) {
          throw new IOException("A DECIMAL constant without digits");
        }
        yield new BigDecimal(new BigInteger(unscaled), scale);
      }
      case STRING -> {
        String s = readString(in);
        if (s == null) {
          throw new IOException("A null string constant");
        }
        yield s;
      }
      default -> throw new IOException("Unknown value tag " + tag);
    };
  }

  // ------------------------------------------------------------------ expressions

  private static final int COLUMN = 0;
  private static final int CONSTANT = 1;
  private static final int CALL = 2;

  public static void writeExpr(DataOutputStream out, Expr e) throws IOException {
    if (e instanceof Expr.Column c) {
      out.writeByte(COLUMN);
      out.writeInt(c.index());
      writeType(out, c.type());
      out.writeBoolean(c.nullable());
    } else if (e instanceof Expr.Constant c) {
      out.writeByte(CONSTANT);
      writeValue(out, c.value());
      writeType(out, c.type());
    } else {
      Expr.Call c = (Expr.Call) e;
      out.writeByte(CALL);
      writeString(out, c.op().name());
      out.writeInt(c.args().size());
      for (Expr a : c.args()) {
        writeExpr(out, a);
      }
      writeType(out, c.type());
      out.writeBoolean(c.nullable());
    }
  }

  public static Expr readExpr(DataInputStream in) throws IOException {
    return readExpr(in, 0);
  }

  private static Expr readExpr(DataInputStream in, int depth) throws IOException {
    if (depth > 500) {
      throw new IOException("An expression nested over 500 deep");
    }
    int tag = in.readUnsignedByte();
    switch (tag) {
      case COLUMN -> {
        int index = in.readInt();
        if (index < 0) {
          throw new IOException("Column " + index);
        }
        return new Expr.Column(index, readType(in), in.readBoolean());
      }
      case CONSTANT -> {
        return new Expr.Constant(readValue(in), readType(in));
      }
      case CALL -> {
        Op op = readEnum(in, Op.class);
        int n = count(in);
        List<Expr> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          args.add(readExpr(in, depth + 1));
        }
        return new Expr.Call(op, args, readType(in), in.readBoolean());
      }
      default -> throw new IOException("Unknown expression tag " + tag);
    }
  }

  // ------------------------------------------------------------------ steps and fragments

  private static final int FILTER = 0;
  private static final int PROJECT = 1;
  private static final int AGGREGATE = 2;
  private static final int SORT = 3;

  public static void writeStep(DataOutputStream out, Step s) throws IOException {
    if (s instanceof Step.Filter f) {
      out.writeByte(FILTER);
      writeExpr(out, f.condition());
    } else if (s instanceof Step.Project p) {
      out.writeByte(PROJECT);
      out.writeInt(p.exprs().size());
      for (Expr e : p.exprs()) {
        writeExpr(out, e);
      }
    } else if (s instanceof Step.Aggregate a) {
      out.writeByte(AGGREGATE);
      writeInts(out, a.keys());
      out.writeInt(a.calls().size());
      for (AggCall c : a.calls()) {
        writeString(out, c.function().name());
        out.writeInt(c.arg());
        out.writeBoolean(c.distinct());
        out.writeInt(c.filter());
        writeType(out, c.type());
      }
      writeString(out, a.phase().name());
      out.writeBoolean(a.sourceTypes() != null);
      if (a.sourceTypes() != null) {
        writeTypes(out, a.sourceTypes());
      }
    } else if (s instanceof Step.HashJoin) {
      throw new IllegalArgumentException("A fragment with a join is not sent to replicas: " + s);
    } else {
      Step.Sort s2 = (Step.Sort) s;
      out.writeByte(SORT);
      out.writeInt(s2.keys().size());
      for (Step.SortKey k : s2.keys()) {
        out.writeInt(k.field());
        out.writeBoolean(k.descending());
        out.writeBoolean(k.nullsFirst());
      }
      out.writeLong(s2.offset());
      out.writeLong(s2.fetch());
    }
  }

  public static Step readStep(DataInputStream in) throws IOException {
    int tag = in.readUnsignedByte();
    try {
      switch (tag) {
        case FILTER -> {
          return new Step.Filter(readExpr(in));
        }
        case PROJECT -> {
          int n = count(in);
          List<Expr> exprs = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            exprs.add(readExpr(in));
          }
          return new Step.Project(exprs);
        }
        case AGGREGATE -> {
          int[] keys = readInts(in);
          int n = count(in);
          List<AggCall> calls = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            AggCall.AggFunction f = readEnum(in, AggCall.AggFunction.class);
            calls.add(new AggCall(f, in.readInt(), in.readBoolean(), in.readInt(), readType(in)));
          }
          Step.Phase phase = readEnum(in, Step.Phase.class);
          List<DataType> source = in.readBoolean() ? readTypes(in) : null;
          return new Step.Aggregate(keys, calls, phase, source);
        }
        case SORT -> {
          int n = count(in);
          List<Step.SortKey> keys = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            keys.add(new Step.SortKey(in.readInt(), in.readBoolean(), in.readBoolean()));
          }
          return new Step.Sort(keys, in.readLong(), in.readLong());
        }
        default -> throw new IOException("Unknown step tag " + tag);
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("A step that cannot be: " + e.getMessage());
    }
  }

  public static void writeFragment(DataOutputStream out, Fragment f) throws IOException {
    writeInts(out, f.scanColumns());
    out.writeInt(f.steps().size());
    for (Step s : f.steps()) {
      writeStep(out, s);
    }
    for (List<DataType> t : f.types()) {
      writeTypes(out, t);
    }
  }

  public static Fragment readFragment(DataInputStream in) throws IOException {
    int[] scan = readInts(in);
    int n = count(in);
    List<Step> steps = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      steps.add(readStep(in));
    }
    List<List<DataType>> types = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      types.add(readTypes(in));
    }
    return new Fragment(scan, steps, types);
  }

  // ------------------------------------------------------------------ pushed predicates

  private static final int P_COMPARE = 0;
  private static final int P_IN = 1;
  private static final int P_NULL = 2;
  private static final int P_AND = 3;
  private static final int P_OR = 4;

  /** A predicate, or null. */
  public static void writePredicate(DataOutputStream out, Predicate p) throws IOException {
    if (p == null) {
      out.writeByte(0xff);
    } else if (p instanceof Predicate.Compare c) {
      out.writeByte(P_COMPARE);
      out.writeInt(c.column());
      writeString(out, c.op().name());
      writeValue(out, c.value());
    } else if (p instanceof Predicate.In i) {
      out.writeByte(P_IN);
      out.writeInt(i.column());
      out.writeInt(i.values().size());
      for (Object v : i.values()) {
        writeValue(out, v);
      }
    } else if (p instanceof Predicate.IsNull n) {
      out.writeByte(P_NULL);
      out.writeInt(n.column());
      out.writeBoolean(n.negated());
    } else {
      List<Predicate> children = p instanceof Predicate.And a ? a.children() : ((Predicate.Or) p).children();
      out.writeByte(p instanceof Predicate.And ? P_AND : P_OR);
      out.writeInt(children.size());
      for (Predicate c : children) {
        writePredicate(out, c);
      }
    }
  }

  public static Predicate readPredicate(DataInputStream in) throws IOException {
    return readPredicate(in, 0);
  }

  private static Predicate readPredicate(DataInputStream in, int depth) throws IOException {
    if (depth > 500) {
      throw new IOException("A predicate nested over 500 deep");
    }
    int tag = in.readUnsignedByte();
    switch (tag) {
      case 0xff -> {
        return null;
      }
      case P_COMPARE -> {
        int col = in.readInt();
        return new Predicate.Compare(col, readEnum(in, Predicate.Op.class), readValue(in));
      }
      case P_IN -> {
        int col = in.readInt();
        int n = count(in);
        List<Object> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          values.add(readValue(in));
        }
        return new Predicate.In(col, values);
      }
      case P_NULL -> {
        return new Predicate.IsNull(in.readInt(), in.readBoolean());
      }
      case P_AND, P_OR -> {
        int n = count(in);
        List<Predicate> children = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          Predicate c = readPredicate(in, depth + 1);
          if (c == null) {
            throw new IOException("A null predicate inside AND/OR");
          }
          children.add(c);
        }
        return tag == P_AND ? new Predicate.And(children) : new Predicate.Or(children);
      }
      default -> throw new IOException("Unknown predicate tag " + tag);
    }
  }

  /** Reads to the end: trailing bytes are an error (a message of another version, or damage). */
  public static void expectEnd(DataInputStream in) throws IOException {
    if (in.read() != -1) {
      throw new IOException("Bytes left after the message");
    }
  }
}
