package dev.travertine.exec.op;

import dev.travertine.exec.Columns;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.vector.DataType;
import java.util.ArrayList;
import java.util.List;

/** Splitting a fragment between the nodes that scan (replicas) and the one that finishes it. */
public final class Fragments {
  private Fragments() {}

  /**
   * A fragment split in two: every replica runs {@code replica} over its share of the scan and
   * sends its output; {@code initiator} runs over the replicas' outputs together (its "scan"
   * fields are the replica's output fields, in order) and gives the original fragment's result.
   */
  public record Split(Fragment replica, Fragment initiator) {}

  /**
   * Splits at the first step that needs all rows: the per-row steps before it run on the
   * replicas; an aggregate becomes PARTIAL there and FINAL on the initiator; a sort or limit keeps
   * its first offset + fetch rows on each replica and is applied again on the initiator; the
   * steps after it run on the initiator. Without such a step, replicas do everything and the
   * initiator passes their rows on.
   */
  public static Split split(Fragment f) {
    List<Step> steps = f.steps();
    int i = 0;
    while (i < steps.size() && (steps.get(i) instanceof Step.Filter || steps.get(i) instanceof Step.Project)) {
      i++;
    }
    if (i == steps.size()) {
      List<DataType> out = f.outputTypes();
      return new Split(f, new Fragment(Columns.identity(out.size()), List.of(), List.of(out)));
    }
    List<Step> replicaSteps = new ArrayList<>(steps.subList(0, i));
    List<List<DataType>> replicaTypes = new ArrayList<>(f.types().subList(0, i + 1));
    List<Step> initiatorSteps = new ArrayList<>();
    List<List<DataType>> initiatorTypes = new ArrayList<>();
    Step breaker = steps.get(i);
    List<DataType> in = f.types().get(i);
    List<DataType> sent;
    if (breaker instanceof Step.Aggregate a) {
      if (a.phase() != Step.Phase.COMPLETE) {
        throw new IllegalArgumentException("The fragment is split already");
      }
      sent = new HashAggregator(in, a.keys(), a.calls()).partialTypes();
      replicaSteps.add(new Step.Aggregate(a.keys(), a.calls(), Step.Phase.PARTIAL, null));
      initiatorSteps.add(new Step.Aggregate(a.keys(), a.calls(), Step.Phase.FINAL, in));
    } else if (breaker instanceof Step.Sort s) {
      sent = in;
      replicaSteps.add(new Step.Sort(s.keys(), 0, s.bound()));
      initiatorSteps.add(s);
    } else {
      throw new IllegalArgumentException("Cannot split at " + breaker);
    }
    replicaTypes.add(sent);
    initiatorTypes.add(sent);
    initiatorTypes.add(f.types().get(i + 1));
    for (int j = i + 1; j < steps.size(); j++) {
      initiatorSteps.add(steps.get(j));
      initiatorTypes.add(f.types().get(j + 1));
    }
    return new Split(new Fragment(f.scanColumns(), replicaSteps, replicaTypes),
        new Fragment(Columns.identity(sent.size()), initiatorSteps, initiatorTypes));
  }
}
