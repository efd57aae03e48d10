package dev.travertine.calcite.prepare;

import dev.travertine.calcite.ddl.TravertineDdlExecutor;
import dev.travertine.calcite.parser.TravertineSqlParserImpl;
import java.io.Reader;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/** Travertine's parser, whose DDL runs on {@link TravertineDdlExecutor}. */
public final class ParserFactory implements SqlParserImplFactory {
  public static final ParserFactory FACTORY = new ParserFactory();

  @Override public SqlAbstractParserImpl getParser(Reader stream) {
    return TravertineSqlParserImpl.FACTORY.getParser(stream);
  }

  /**
   * Parses one statement for a fast path, or returns null when it does not parse: the normal
   * path then parses again and reports the error.
   */
  public static SqlNode parseOrNull(String sql, SqlParser.Config config) {
    try {
      return SqlParser.create(sql, config).parseStmt();
    } catch (SqlParseException e) {
      return null;
    }
  }

  @Override public DdlExecutor getDdlExecutor() {
    return TravertineDdlExecutor.INSTANCE;
  }
}
