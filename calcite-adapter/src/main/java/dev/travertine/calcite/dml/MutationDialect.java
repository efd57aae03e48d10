package dev.travertine.calcite.dml;

import dev.travertine.calcite.prepare.ParserFactory;
import java.io.StringReader;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;

/**
 * Unparses mutation expressions for storage and for system.mutations: identifiers are quoted
 * only when they must be (not a plain word, or a reserved word of our parser), so the command
 * reads as written ({@code UPDATE v = v + 1 WHERE id = 3}) and still parses back the same.
 */
final class MutationDialect extends CalciteSqlDialect {
  static final MutationDialect INSTANCE = new MutationDialect();

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final SqlAbstractParserImpl.Metadata METADATA =
      ParserFactory.FACTORY.getParser(new StringReader("")).getMetadata();

  private MutationDialect() {
    super(CalciteSqlDialect.DEFAULT_CONTEXT);
  }

  @Override public StringBuilder quoteIdentifier(StringBuilder buf, String val) {
    if (PLAIN.matcher(val).matches() && !METADATA.isReservedWord(val.toUpperCase(Locale.ROOT))) {
      return buf.append(val);
    }
    return super.quoteIdentifier(buf, val);
  }
}
