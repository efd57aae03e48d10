package dev.travertine.calcite;

import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Calcite's prepare with Travertine's rules registered in every planner (INSERT … VALUES has no scan to register them). */
public class TravertinePrepare extends CalcitePrepareImpl {
  @Override protected RelOptPlanner createPlanner(org.apache.calcite.jdbc.CalcitePrepare.Context prepareContext,
      org.apache.calcite.plan.@Nullable Context externalContext, @Nullable RelOptCostFactory costFactory) {
    RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
    TravertineRules.register(planner);
    return planner;
  }
}
