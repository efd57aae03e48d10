package dev.travertine.calcite.dml;

import dev.travertine.calcite.schema.TravertineSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.SqlKind;

/** A prepared UPDATE/DELETE/ALTER TABLE mutation: executes as one engine mutation, returns the rows it affects. */
public final class MutationSignature<T> extends CalcitePrepare.CalciteSignature<T> {
  @SuppressWarnings("unchecked")
  public MutationSignature(String sql, MutationStatement statement, CalcitePrepare.Context context,
      TravertineSession session) {
    super(sql, statement.parameters(), Map.of(), RelOptUtil.createDmlRowType(SqlKind.UPDATE, context.getTypeFactory()),
        List.of(FastInsertSignature.rowCountColumn()), Meta.CursorFactory.OBJECT, context.getRootSchema(), List.of(),
        -1,
        dataContext -> {
          List<Object> params = new ArrayList<>();
          for (int i = 0; i < statement.paramCount(); i++) {
            params.add(dataContext.get("?" + i));
          }
          long n = FastInsertSignature.logged(session, sql, () -> statement.execute(session, params));
          return (org.apache.calcite.linq4j.Enumerable<T>) (Object) Linq4j.singletonEnumerable((Object) n);
        },
        Meta.StatementType.IS_DML);
  }
}
