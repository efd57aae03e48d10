package dev.travertine.formats;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A file format by ClickHouse's name or a file's extension: a binary one ({@link FileLoad.Kind})
 * or a text one ({@link TextFormat}); and ClickHouse's {@code structure} argument
 * ({@code 'id BIGINT, name VARCHAR'}) as a schema.
 */
public record FileFormat(FileLoad.Kind binary, TextFormat text, String name) {
  public static final String NAMES = "Parquet, ORC, CSV, CSVWithNames, TSV/TabSeparated, TSVWithNames, JSONEachRow";

  public boolean isText() {
    return text != null;
  }

  /** The format of a name (case-insensitive), or null. */
  public static FileFormat named(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return switch (n) {
      case "parquet" -> new FileFormat(FileLoad.Kind.PARQUET, null, "Parquet");
      case "orc" -> new FileFormat(FileLoad.Kind.ORC, null, "ORC");
      case "csv", "csvwithnames", "tsv", "tabseparated", "tsvwithnames", "tabseparatedwithnames", "jsoneachrow",
          "jsonlines", "ndjson" -> new FileFormat(null, TextFormat.named(n), name);
      default -> null;
    };
  }

  /** The format a file name's extension names ({@code .gz}/{@code .zst} looked through), or null. */
  public static FileFormat ofExtension(String file) {
    String n = file.toLowerCase(Locale.ROOT).replaceFirst("\\.(gz|gzip|zst|zstd)$", "");
    if (n.endsWith(".parquet") || n.endsWith(".pq")) {
      return named("Parquet");
    }
    if (n.endsWith(".orc")) {
      return named("ORC");
    }
    if (n.endsWith(".csv")) {
      return named("CSV");
    }
    if (n.endsWith(".tsv") || n.endsWith(".tab")) {
      return named("TSV");
    }
    if (n.endsWith(".jsonl") || n.endsWith(".ndjson") || n.endsWith(".json")) {
      return named("JSONEachRow");
    }
    return null;
  }

  /**
   * A structure: comma-separated {@code name TYPE} pairs, types by SQL's names (BOOLEAN, TINYINT,
   * SMALLINT, INT/INTEGER, BIGINT, REAL/FLOAT, DOUBLE, DECIMAL(p, s), CHAR(n), VARCHAR[(n)], DATE,
   * TIMESTAMP) or ClickHouse's (Bool, Int8…Int64, UInt8…UInt32, Float32, Float64, String, Date,
   * DateTime, Nullable(T)); every column nullable.
   */
  public static TableSchema structure(String s) {
    List<Column> cols = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i <= s.length(); i++) {
      char c = i < s.length() ? s.charAt(i) : ',';
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        String part = s.substring(start, i).trim();
        start = i + 1;
        if (part.isEmpty()) {
          continue;
        }
        int sp = part.indexOf(' ');
        if (sp < 0) {
          throw new IllegalArgumentException("structure: '" + part + "' needs a name and a type");
        }
        String name = unquote(part.substring(0, sp).trim());
        cols.add(new Column(name, type(part.substring(sp + 1).trim()), true));
      }
    }
    if (cols.isEmpty()) {
      throw new IllegalArgumentException("structure: no columns in '" + s + "'");
    }
    return new TableSchema(cols);
  }

  private static String unquote(String n) {
    if (n.length() >= 2 && (n.charAt(0) == '"' || n.charAt(0) == '`') && n.charAt(n.length() - 1) == n.charAt(0)) {
      return n.substring(1, n.length() - 1);
    }
    return n;
  }

  private static DataType type(String t) {
    String u = t.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (u.startsWith("NULLABLE(") && u.endsWith(")")) {
      return type(t.substring(9, t.length() - 1).trim());
    }
    String base = u.contains("(") ? u.substring(0, u.indexOf('(')).trim() : u;
    int[] args = new int[0];
    if (u.contains("(")) {
      String inner = u.substring(u.indexOf('(') + 1, u.lastIndexOf(')'));
      String[] parts = inner.split(",");
      args = new int[parts.length];
      for (int i = 0; i < parts.length; i++) {
        try {
          args[i] = Integer.parseInt(parts[i].trim());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("structure: bad type '" + t + "'");
        }
      }
    }
    return switch (base) {
      case "BOOLEAN", "BOOL" -> DataType.of(TypeKind.BOOLEAN);
      case "TINYINT", "INT8" -> DataType.of(TypeKind.TINYINT);
      case "SMALLINT", "INT16", "UINT8" -> DataType.of(TypeKind.SMALLINT);
      case "INT", "INTEGER", "INT32", "UINT16" -> DataType.of(TypeKind.INTEGER);
      case "BIGINT", "INT64", "UINT32" -> DataType.of(TypeKind.BIGINT);
      case "REAL", "FLOAT", "FLOAT32" -> DataType.of(TypeKind.REAL);
      case "DOUBLE", "DOUBLE PRECISION", "FLOAT64" -> DataType.of(TypeKind.DOUBLE);
      case "DECIMAL", "NUMERIC" -> DataType.decimal(args.length > 0 ? args[0] : 18, args.length > 1 ? args[1] : 0);
      case "CHAR" -> new DataType(TypeKind.CHAR, args.length > 0 ? args[0] : 1, -1);
      case "VARCHAR", "STRING", "TEXT" -> DataType.varchar(args.length > 0 ? args[0] : -1);
      case "DATE", "DATE32" -> DataType.of(TypeKind.DATE);
      case "TIMESTAMP", "DATETIME", "DATETIME64" -> DataType.of(TypeKind.TIMESTAMP);
      default -> throw new IllegalArgumentException("structure: unknown type '" + t + "'");
    };
  }
}
