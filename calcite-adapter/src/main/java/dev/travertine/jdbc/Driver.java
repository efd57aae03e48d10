package dev.travertine.jdbc;

import dev.travertine.calcite.prepare.ParserFactory;
import dev.travertine.calcite.schema.SystemSchema;
import dev.travertine.calcite.prepare.TravertinePrepare;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.settings.SessionSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Handler;
import org.apache.calcite.avatica.HandlerImpl;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

/**
 * Travertine's JDBC driver: {@code jdbc:travertine:<data-dir>} opens (or shares, within this JVM)
 * the database in that directory, with Travertine's parser, DDL and planner rules. Extra
 * properties may follow after ';' ({@code jdbc:travertine:/data;max_threads=1}): known session
 * settings become the connection's settings.
 */
public final class Driver extends org.apache.calcite.jdbc.Driver {
  public static final String PREFIX = "jdbc:travertine:";
  private static final String DATA_DIR = "travertine.dataDir";
  /** Connection property a server sets for its read-only users (clients cannot set it remotely). */
  public static final String READ_ONLY = "travertine.readOnly";

  static {
    new Driver().register();
  }

  public Driver() {
    super(TravertinePrepare::new);
  }

  @Override protected String getFactoryClassName(org.apache.calcite.avatica.UnregisteredDriver.JdbcVersion jdbcVersion) {
    return org.apache.calcite.jdbc.TravertineJdbcFactory.class.getName();
  }

  /** URLs of a server ({@code jdbc:travertine:remote:url=…}): the remote driver's, not this one's. */
  public static final String REMOTE_PREFIX = "jdbc:travertine:remote:";
  /** The JDBC catalog name of every connection. */
  public static final String CATALOG = "travertine";

  @Override public boolean acceptsURL(String url) throws SQLException {
    return super.acceptsURL(url) && !url.startsWith(REMOTE_PREFIX);
  }

  @Override protected String getConnectStringPrefix() {
    return PREFIX;
  }

  @Override protected DriverVersion createDriverVersion() {
    return new DriverVersion("Travertine JDBC Driver", Version.get(), "Travertine", Version.get(), true,
        Version.part(0), Version.part(1), Version.part(0), Version.part(1));
  }

  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    String rest = url.substring(PREFIX.length());
    Properties props = new Properties();
    if (info != null) {
      props.putAll(info);
    }
    int semi = rest.indexOf(';');
    String dir = semi < 0 ? rest : rest.substring(0, semi);
    if (semi >= 0) {
      for (String kv : rest.substring(semi + 1).split(";")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          props.setProperty(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
      }
    }
    if (dir.isBlank()) {
      throw new SQLException("Invalid URL " + url + ": expected " + PREFIX + "<data-directory>");
    }
    props.setProperty(DATA_DIR, dir);
    props.setProperty("parserFactory", ParserFactory.class.getName() + "#FACTORY");
    props.setProperty("caseSensitive", "false");
    props.setProperty("unquotedCasing", "UNCHANGED");
    props.setProperty("quotedCasing", "UNCHANGED");
    props.setProperty("conformance", "LENIENT");
    // no materialized views here: otherwise the planner looks for usable ones in every query
    props.setProperty("materializationsEnabled", "false");
    props.setProperty("typeSystem", "dev.travertine.calcite.schema.TravertineTypeSystem#INSTANCE");
    return super.connect(PREFIX, props);
  }

  @Override public org.apache.calcite.avatica.Meta createMeta(AvaticaConnection connection) {
    return org.apache.calcite.jdbc.TravertineMetaImpl.create(connection);
  }

  @Override protected Handler createHandler() {
    Handler calcite = super.createHandler();
    return new HandlerImpl() {
      @Override public void onConnectionInit(AvaticaConnection connection) throws SQLException {
        calcite.onConnectionInit(connection);
        Properties p = ((CalciteConnection) connection).getProperties();
        String dir = p.getProperty(DATA_DIR);
        Database db;
        java.util.Map<String, String> storage = new java.util.HashMap<>();
        for (String k : p.stringPropertyNames()) {
          if (k.startsWith("s3.") || k.startsWith("hadoop.") || k.startsWith("storage.")
              || k.equals(Database.USER_FILES_PATH)
              || dev.travertine.calcite.cluster.NodeExchange.isKey(k)
              || k.equals(dev.travertine.mergetree.scan.DecodedColumnCache.SIZE_KEY)
              || dev.travertine.mergetree.query.QueryRegistry.isConcurrencyKey(k)) {
            storage.put(k, p.getProperty(k));
          }
        }
        try {
          db = DatabaseRegistry.acquire(Path.of(dir), storage);
        } catch (IOException | RuntimeException e) {
          throw new SQLException(e.getMessage(), e);
        }
        try {
          SessionSettings settings = new SessionSettings();
          for (String k : p.stringPropertyNames()) {
            try {
              dev.travertine.mergetree.settings.Settings.require(k,
                  dev.travertine.mergetree.settings.Setting.Scope.SESSION);
            } catch (IllegalArgumentException e) {
              continue; // not a Travertine setting: a JDBC or Calcite property
            }
            settings.set(k, p.getProperty(k));
          }
          TravertineSession session = new TravertineSession(db, settings,
              p.getProperty("user") == null || p.getProperty("user").isEmpty() ? "default" : p.getProperty("user"));
          CalciteConnection cc = (CalciteConnection) connection;
          SchemaPlus root = cc.getRootSchema();
          // Calcite's own "metadata" schema (its JDBC metadata as tables) is not ours to show.
          org.apache.calcite.jdbc.CalciteSchema.from(root).removeSubSchema("metadata");
          // A catalog name for JDBC metadata (TABLE_CAT of getCatalogs, getSchemas and getTables),
          // which GUI tools show as the top of the tree; SQL does not use it.
          connection.setCatalog(CATALOG);
          session.setReadOnly(Boolean.parseBoolean(p.getProperty(READ_ONLY, "false")));
          TravertineSchema.addTypeAliases(root);
          TravertineSchema main = new TravertineSchema(session);
          SchemaPlus mainPlus = root.add(TravertineSchema.NAME, main);
          // Calcite creates a schema's name cache on first use, enabled whatever setCacheEnabled said
          // before: create it now so that turning caching off reaches it (else JDBC metadata keeps
          // listing dropped tables).
          org.apache.calcite.jdbc.CalciteSchema.from(mainPlus).tables();
          mainPlus.setCacheEnabled(false);
          main.setPlusPublic(mainPlus);
          SchemaPlus sys = root.add(SystemSchema.NAME, new SystemSchema(session));
          sys.setCacheEnabled(false);
          cc.setSchema(TravertineSchema.NAME);
          SESSIONS.put(connection, db);
        } catch (RuntimeException e) {
          try {
            DatabaseRegistry.release(db);
          } catch (IOException ex) {
            e.addSuppressed(ex);
          }
          throw new SQLException(e.getMessage(), e);
        }
      }

      @Override public void onConnectionClose(AvaticaConnection connection) {
        calcite.onConnectionClose(connection);
        Database db = SESSIONS.remove(connection);
        if (db != null) {
          // A client that goes away (close, or the server expiring its connection) stops its query.
          TravertineSchema.session(((CalciteConnection) connection).getRootSchema()).clientGone();
        }
        if (db != null) {
          try {
            DatabaseRegistry.release(db);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      }
    };
  }

  private static final java.util.Map<AvaticaConnection, Database> SESSIONS =
      new java.util.concurrent.ConcurrentHashMap<>();
}
