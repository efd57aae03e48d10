package dev.travertine.server.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * One self-contained JDBC driver jar from a runtime classpath, for tools that take a single jar
 * (DBeaver, DataGrip, SQuirreL): both drivers, {@code dev.travertine.jdbc.Driver} (embedded,
 * {@code jdbc:travertine:DIR}) and {@code dev.travertine.jdbc.RemoteDriver} (a server), and
 * everything they need. Service files ({@code META-INF/services/…}, which JDBC, Hadoop's file
 * systems and the AWS SDK look classes up by) are merged; signatures, manifests and
 * {@code module-info} classes of the merged jars are dropped; of any other path the first
 * classpath entry's copy wins. The shell's own libraries (sqlline, jline) are left out.
 */
public final class DriverJar {
  private DriverJar() {}

  /** Jars of the shell, not of the driver (file names start with these). */
  private static final List<String> LEFT_OUT = List.of("sqlline-", "jline-");

  /** What was written: entries, and classpath elements merged. */
  public record Written(int entries, int sources, long bytes) {}

  /**
   * Writes the jar.
   *
   * @param classpath jars and class directories, in classpath order
   * @param version written into the manifest
   */
  public static Written write(List<Path> classpath, Path out, String version) throws IOException {
    Map<String, Set<String>> services = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    int entries = 0;
    int sources = 0;
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(Attributes.Name.IMPLEMENTATION_TITLE, "Travertine JDBC driver");
    main.put(Attributes.Name.IMPLEMENTATION_VERSION, version);
    main.putValue("Multi-Release", "true");
    try (OutputStream file = Files.newOutputStream(tmp); JarOutputStream jar = new JarOutputStream(file, manifest)) {
      jar.setLevel(Deflater.BEST_SPEED);
      seen.add("META-INF/MANIFEST.MF");
      for (Path element : classpath) {
        String fileName = element.getFileName() == null ? "" : element.getFileName().toString();
        if (LEFT_OUT.stream().anyMatch(fileName::startsWith) || !Files.exists(element)) {
          continue;
        }
        sources++;
        if (Files.isDirectory(element)) {
          List<Path> files;
          try (Stream<Path> s = Files.walk(element)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
          }
          for (Path f : files) {
            String name = element.relativize(f).toString().replace('\\', '/');
            try (InputStream in = Files.newInputStream(f)) {
              entries += add(jar, name, in, seen, services);
            }
          }
        } else {
          try (ZipFile zip = new ZipFile(element.toFile())) {
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements();) {
              ZipEntry z = e.nextElement();
              if (z.isDirectory()) {
                continue;
              }
              try (InputStream in = zip.getInputStream(z)) {
                entries += add(jar, z.getName(), in, seen, services);
              }
            }
          }
        }
      }
      for (Map.Entry<String, Set<String>> s : services.entrySet()) {
        jar.putNextEntry(new JarEntry(s.getKey()));
        jar.write((String.join("\n", s.getValue()) + "\n").getBytes(StandardCharsets.UTF_8));
        jar.closeEntry();
        entries++;
      }
    }
    Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return new Written(entries, sources, Files.size(out));
  }

  /** Adds one entry unless it is dropped or already there; returns 1 when written. */
  private static int add(JarOutputStream jar, String name, InputStream in, Set<String> seen,
      Map<String, Set<String>> services) throws IOException {
    String upper = name.toUpperCase(Locale.ROOT);
    if (upper.startsWith("META-INF/") && (upper.endsWith(".SF") || upper.endsWith(".DSA") || upper.endsWith(".RSA")
        || upper.endsWith(".EC") || upper.equals("META-INF/MANIFEST.MF") || upper.equals("META-INF/INDEX.LIST"))
        || name.endsWith("module-info.class")) {
      return 0;
    }
    if (name.startsWith("META-INF/services/") && name.indexOf('/', "META-INF/services/".length()) < 0) {
      Set<String> lines = services.computeIfAbsent(name, k -> new LinkedHashSet<>());
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R")) {
        String l = line.strip();
        if (!l.isEmpty() && !l.startsWith("#")) {
          lines.add(l);
        }
      }
      return 0;
    }
    if (!seen.add(name)) {
      return 0;
    }
    jar.putNextEntry(new JarEntry(name));
    in.transferTo(jar);
    jar.closeEntry();
    return 1;
  }

  /** The elements of a classpath string. */
  public static List<Path> elements(String classpath) {
    List<Path> out = new ArrayList<>();
    for (String s : classpath.split(java.io.File.pathSeparator)) {
      if (!s.isBlank()) {
        out.add(Path.of(s));
      }
    }
    return out;
  }
}
