package dev.travertine.calcite;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/** Relational expressions evaluated by Travertine's scan rather than by Calcite's Enumerable code. */
public interface TravertineRel extends RelNode {
  /** Travertine's calling convention: an enriched table scan not yet turned into code. */
  Convention CONVENTION = new Convention.Impl("TRAVERTINE", TravertineRel.class);
}
