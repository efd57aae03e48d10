package dev.travertine.calcite.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class LiteralCastExecutorTest {
  private final JavaTypeFactoryImpl tf = new JavaTypeFactoryImpl();
  private final RexBuilder rb = new RexBuilder(tf);

  @Test
  void numericLiteralToDoubleIsReducedWithoutTheFallback() {
    List<RexNode> seen = new ArrayList<>();
    LiteralCastExecutor ex = new LiteralCastExecutor((b, in, out) -> {
      seen.addAll(in);
      out.addAll(in);
    });
    RexNode cast = rb.makeAbstractCast(tf.createSqlType(SqlTypeName.DOUBLE), rb.makeExactLiteral(new BigDecimal("5.3")), false);
    List<RexNode> out = new ArrayList<>();
    ex.reduce(rb, List.of(cast), out);
    assertTrue(seen.isEmpty(), "fallback called for " + seen);
    assertEquals(5.3, ((RexLiteral) out.get(0)).getValueAs(Double.class), 0.0);
    assertEquals(SqlTypeName.DOUBLE, out.get(0).getType().getSqlTypeName());
  }

  @Test
  void anythingElseGoesToTheFallbackWhole() {
    List<RexNode> seen = new ArrayList<>();
    LiteralCastExecutor ex = new LiteralCastExecutor((b, in, out) -> {
      seen.addAll(in);
      out.addAll(in);
    });
    RexNode toDouble = rb.makeAbstractCast(tf.createSqlType(SqlTypeName.DOUBLE), rb.makeExactLiteral(BigDecimal.ONE), false);
    RexNode toInt = rb.makeAbstractCast(tf.createSqlType(SqlTypeName.INTEGER), rb.makeExactLiteral(new BigDecimal("5.7")), false);
    List<RexNode> out = new ArrayList<>();
    ex.reduce(rb, List.of(toDouble, toInt), out);
    assertEquals(List.of(toDouble, toInt), seen);
    assertEquals(2, out.size());
  }
}
