package dev.travertine.server;

import dev.travertine.mergetree.settings.Setting;
import dev.travertine.mergetree.settings.Settings;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Server settings, from a properties file (see {@link #DEFAULTS} for every key and its default)
 * overridden by command-line flags. Unknown keys and bad values are errors.
 *
 * <pre>
 * host = 127.0.0.1          # address to listen on
 * port = 8765               # 0 = any free port
 * data = data               # data directory (relative to the working directory)
 * serialization = protobuf  # protobuf | json (Avatica wire format)
 * log.file =                # default: &lt;data&gt;/travertine-server.log
 * auth.user.alice = secret  # users for HTTP Basic authentication; MD5:… or CRYPT:… hashes work too
 * auth.readonly = bob       # users that may only read (comma-separated)
 * auth.probes = false       # whether /health and /ping need credentials too (probes send none)
 * tls.keystore =            # a JKS/PKCS12 keystore enables HTTPS
 * tls.keystore.password =
 * settings.max_threads = 2  # session setting defaults for every connection
 * user_files_path =         # the only directory file() reads and INTO OUTFILE writes (default &lt;data&gt;/user_files)
 * storage.default =         # where new tables live: s3://bucket/prefix or hdfs://host:port/path
 * storage.fsync = true      # false: nothing local is forced to disk (scratch databases, test suites)
 * storage.cache_max_bytes = # in-memory cache of remote reads (default 512 MiB; SET enable_filesystem_cache = 1)
 * storage.cache_path =      # a local directory as the cache's second tier (emptied at start)
 * storage.cache_disk_max_bytes = # its size limit (default 10 GiB)
 * uncompressed_cache_size = # decoded-column cache, bytes (default 1 GiB or 1/4 of the heap; SET use_uncompressed_cache = 1)
 * s3.endpoint = …           # S3 client: s3.region, s3.path_style, s3.access_key_id, s3.secret_access_key, …
 * hadoop.fs.defaultFS = …   # Hadoop configuration for hdfs:// (without the "hadoop." prefix)
 * max_concurrent_queries = 0          # statements running at once; more are refused (0 = no limit)
 * max_concurrent_queries_for_user = 0 # the same per user
 * exchange.port =           # this node's exchange endpoint for other nodes (parallel replicas); none by default
 * exchange.host = 127.0.0.1 # the address it listens on and other nodes know it by
 * cluster.secret =          # what every node of the clusters shares (required with a cluster or exchange.port)
 * cluster.&lt;name&gt;.replicas = h1:p1,h2:p2 # a cluster: its nodes' exchange addresses (this node may be one)
 * </pre>
 */
public record ServerConfig(String host, int port, Path dataDir, String serialization, Path logFile,
    Map<String, String> users, java.util.Set<String> readOnlyUsers, Path keystore, String keystorePassword,
    Map<String, String> sessionDefaults, Map<String, String> storage, boolean probesAuthenticate) {

  /** Every plain key with its default. */
  public static final Map<String, String> DEFAULTS;

  static {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("host", "127.0.0.1");
    d.put("port", "8765");
    d.put("data", "data");
    d.put("serialization", "protobuf");
    d.put("log.file", "");
    d.put("auth.readonly", "");
    d.put("auth.probes", "false");
    d.put("tls.keystore", "");
    d.put("tls.keystore.password", "");
    d.put("user_files_path", "");
    DEFAULTS = Map.copyOf(d);
  }

  /** Reads a config file (null = defaults only) and applies overrides (same keys). */
  public static ServerConfig load(Path file, Map<String, String> overrides) throws IOException {
    Map<String, String> v = new TreeMap<>(DEFAULTS);
    if (file != null) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(file)) {
        p.load(r);
      }
      for (String k : p.stringPropertyNames()) {
        v.put(k, p.getProperty(k).trim());
      }
    }
    v.putAll(overrides);
    Map<String, String> users = new TreeMap<>();
    Map<String, String> settings = new TreeMap<>();
    Map<String, String> storage = new TreeMap<>();
    for (Map.Entry<String, String> e : v.entrySet()) {
      String k = e.getKey();
      if (k.startsWith("auth.user.")) {
        String user = k.substring("auth.user.".length());
        if (user.isEmpty() || !user.matches("[A-Za-z0-9_.@-]+")) {
          throw new IllegalArgumentException("Invalid user name in config key " + k);
        }
        if (e.getValue().isEmpty()) {
          throw new IllegalArgumentException("Empty password for user " + user);
        }
        users.put(user, e.getValue());
      } else if (k.startsWith("settings.")) {
        Setting s = Settings.require(k.substring("settings.".length()), Setting.Scope.SESSION);
        settings.put(s.name(), s.normalize(e.getValue()));
      } else if (k.equals("storage.default")) {
        storage.put(k, Settings.STORAGE.normalize(e.getValue()));
      } else if (k.equals("storage.fsync")) {
        storage.put(k, Boolean.toString(dev.travertine.mergetree.Database.fsync(Map.of(k, e.getValue()))));
      } else if (k.equals("storage.cache_path")) {
        storage.put(k, e.getValue());
      } else if (k.equals("storage.cache_max_bytes") || k.equals("storage.cache_disk_max_bytes")) {
        try {
          storage.put(k, Long.toString(Long.parseLong(e.getValue())));
        } catch (NumberFormatException ex) {
          throw new IllegalArgumentException("Invalid " + k + ": '" + e.getValue() + "' (bytes)");
        }
      } else if (k.equals(dev.travertine.mergetree.scan.DecodedColumnCache.SIZE_KEY)) {
        storage.put(k, Long.toString(dev.travertine.mergetree.scan.DecodedColumnCache.parseSize(e.getValue())));
      } else if (dev.travertine.mergetree.query.QueryRegistry.isConcurrencyKey(k)) {
        storage.put(k, Long.toString(dev.travertine.mergetree.query.QueryRegistry.concurrency(Map.of(k, e.getValue()),
            k)));
      } else if (k.startsWith("s3.") || k.startsWith("hadoop.")
          || dev.travertine.calcite.cluster.NodeExchange.isKey(k)) {
        storage.put(k, e.getValue()); // node properties, checked when the engine opens
      } else if (!DEFAULTS.containsKey(k)) {
        throw new IllegalArgumentException("Unknown server setting: " + k + " (known: " + DEFAULTS.keySet()
            + ", auth.user.<name>, settings.<session setting>, storage.default, storage.fsync, storage.cache_*,"
            + " uncompressed_cache_size, max_concurrent_queries, max_concurrent_queries_for_user, s3.*, hadoop.*,"
            + " exchange.port, exchange.host, cluster.secret,"
            + " cluster.<name>.replicas)");
      }
    }
    int port;
    try {
      port = Integer.parseInt(v.get("port"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid port: '" + v.get("port") + "' (expected 0..65535)");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("Invalid port: " + port + " (expected 0..65535)");
    }
    String ser = v.get("serialization").toLowerCase(Locale.ROOT);
    if (!ser.equals("protobuf") && !ser.equals("json")) {
      throw new IllegalArgumentException("Invalid serialization: " + ser + " (expected protobuf or json)");
    }
    Path data = Path.of(v.get("data")).toAbsolutePath().normalize();
    // A server's clients are confined to one directory (an embedded process is not).
    storage.put(dev.travertine.mergetree.Database.USER_FILES_PATH, v.get("user_files_path").isBlank()
        ? data.resolve("user_files").toString() : Path.of(v.get("user_files_path")).toAbsolutePath().normalize().toString());
    Path log = v.get("log.file").isEmpty() ? data.resolve("travertine-server.log") : Path.of(v.get("log.file"));
    Path ks = v.get("tls.keystore").isEmpty() ? null : Path.of(v.get("tls.keystore"));
    java.util.Set<String> readOnly = new java.util.TreeSet<>();
    for (String u : v.get("auth.readonly").split(",")) {
      if (!u.isBlank()) {
        if (!users.containsKey(u.strip())) {
          throw new IllegalArgumentException("auth.readonly names an unknown user: " + u.strip());
        }
        readOnly.add(u.strip());
      }
    }
    String probes = v.get("auth.probes").strip().toLowerCase(Locale.ROOT);
    if (!probes.equals("true") && !probes.equals("false")) {
      throw new IllegalArgumentException("Invalid auth.probes: '" + v.get("auth.probes") + "' (expected true or false)");
    }
    return new ServerConfig(v.get("host"), port, data, ser, log, Map.copyOf(users), Set.copyOf(readOnly), ks,
        v.get("tls.keystore.password"), Map.copyOf(settings), Map.copyOf(storage), Boolean.parseBoolean(probes));
  }
}
