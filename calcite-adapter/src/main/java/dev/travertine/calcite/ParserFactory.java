package dev.travertine.calcite;

import dev.travertine.calcite.parser.TravertineSqlParserImpl;
import java.io.Reader;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/** Travertine's parser, whose DDL runs on {@link TravertineDdlExecutor}. */
public final class ParserFactory implements SqlParserImplFactory {
  public static final ParserFactory FACTORY = new ParserFactory();

  @Override public SqlAbstractParserImpl getParser(Reader stream) {
    return TravertineSqlParserImpl.FACTORY.getParser(stream);
  }

  @Override public DdlExecutor getDdlExecutor() {
    return TravertineDdlExecutor.INSTANCE;
  }
}
