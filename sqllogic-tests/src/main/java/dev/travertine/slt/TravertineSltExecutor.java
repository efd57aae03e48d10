package dev.travertine.slt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.executors.JdbcExecutor;

/** Runs each sqllogictest file on a fresh embedded Travertine database in a temporary directory. */
public final class TravertineSltExecutor extends JdbcExecutor {
  private final Path dir;

  private TravertineSltExecutor(OptionsParser.SuppliedOptions options, Path dir) {
    super(options, "jdbc:travertine:" + dir, "", "");
    this.dir = dir;
  }

  /** Registers the executor under the name "travertine". */
  public static void register(OptionsParser parser) {
    parser.registerExecutor("travertine", () -> {
      try {
        return new TravertineSltExecutor(parser.getOptions(), Files.createTempDirectory("travertine-slt"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** Drops only the user's tables (the library would try the system tables too). */
  @Override public void dropAllTables() throws SQLException {
    dropAll("SELECT name FROM system.tables", "DROP TABLE ");
  }

  @Override public void dropAllViews() throws SQLException {
    dropAll("SELECT name FROM system.views", "DROP VIEW ");
  }

  private void dropAll(String list, String drop) throws SQLException {
    java.util.List<String> names = new java.util.ArrayList<>();
    try (java.sql.Statement s = getConnection().createStatement(); java.sql.ResultSet rs = s.executeQuery(list)) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    for (String n : names) {
      try (java.sql.Statement s = getConnection().createStatement()) {
        s.execute(drop + "\"" + n.replace("\"", "\"\"") + "\"");
      }
    }
  }

  @Override public void closeConnection() throws SQLException {
    super.closeConnection();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
