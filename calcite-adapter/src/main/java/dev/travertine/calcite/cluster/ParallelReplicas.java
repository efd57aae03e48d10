package dev.travertine.calcite.cluster;

import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.calcite.vectorized.VectorizedSpec;
import dev.travertine.exec.op.Fragment;
import dev.travertine.exec.op.FragmentRunner;
import dev.travertine.exec.op.Fragments;
import dev.travertine.exec.op.MemoryTracker;
import dev.travertine.exec.op.ScanSource;
import dev.travertine.exec.op.Step;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Setting;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.rpc.exchange.ExchangeClient;
import dev.travertine.rpc.exchange.FragmentRequest;
import dev.travertine.rpc.exchange.ParallelReplicasSource;
import dev.travertine.vector.BatchIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether and how a vectorized fragment runs with parallel replicas
 * ({@code enable_parallel_replicas}): the other nodes of {@code cluster_for_parallel_replicas}
 * read the table's parts from the shared storage and run the fragment's replica half on the
 * tasks this node's coordinator hands them; this node runs it too and finishes the fragment.
 */
public final class ParallelReplicas {
  private ParallelReplicas() {}

  /** Why the fragment runs on this node alone (null: it does not). */
  public static String whyLocal(TravertineSession session, VectorizedSpec spec) {
    SessionSettings s = session.settings();
    if (!s.getBool(Settings.ENABLE_PARALLEL_REPLICAS)) {
      return "enable_parallel_replicas = 0";
    }
    String cluster = s.get(Settings.CLUSTER_FOR_PARALLEL_REPLICAS);
    if (cluster.isEmpty()) {
      return "cluster_for_parallel_replicas is not set";
    }
    NodeExchange x = NodeExchange.of(session.database());
    if (x == null) {
      throw new IllegalArgumentException("Cluster '" + cluster + "' is not configured (this node has no clusters)");
    }
    if (x.replicas(cluster, Integer.MAX_VALUE).isEmpty()) {
      return "cluster " + cluster + " has no other node";
    }
    if (s.getLong(Settings.MAX_PARALLEL_REPLICAS) <= 1) {
      return "max_parallel_replicas = 1";
    }
    if (spec.scan().ordered()) {
      return "the scan reads in sort-key order";
    }
    if (spec.joins()) {
      return JOINS;
    }
    return null;
  }

  /** Why a fragment with joins runs here alone (EXPLAIN says so). */
  static final String JOINS = "the fragment joins: joins run on this node (no broadcast of a build side yet)";

  /** The other nodes a query uses: at most max_parallel_replicas - 1 (this node is one). */
  private static List<Map.Entry<NodeExchange.Peer, ExchangeClient>> replicas(TravertineSession session) {
    SessionSettings s = session.settings();
    return NodeExchange.of(session.database()).replicas(s.get(Settings.CLUSTER_FOR_PARALLEL_REPLICAS),
        (int) Math.min(Integer.MAX_VALUE, s.getLong(Settings.MAX_PARALLEL_REPLICAS) - 1));
  }

  /** EXPLAIN's words for the exchange of a fragment, or null when it runs here alone. */
  public static String describe(TravertineSession session, VectorizedSpec spec) {
    String why = whyLocal(session, spec);
    if (JOINS.equals(why)) {
      return "none (" + why + ")";
    }
    if (why != null) {
      return null;
    }
    Fragments.Split split = Fragments.split(spec.fragment());
    List<String> nodes = new ArrayList<>();
    replicas(session).forEach(e -> nodes.add(e.getKey().address()));
    return "parallel replicas: cluster " + session.settings().get(Settings.CLUSTER_FOR_PARALLEL_REPLICAS)
        + ", this node and " + nodes + "; on every node: scan" + steps(split.replica()) + "; over the wire: "
        + wire(split.replica()) + "; here: " + (split.initiator().steps().isEmpty() ? "the rows"
        : steps(split.initiator()).substring(2));
  }

  private static String steps(Fragment f) {
    StringBuilder b = new StringBuilder();
    for (Step st : f.steps()) {
      b.append(", ");
      if (st instanceof Step.Filter) {
        b.append("filter");
      } else if (st instanceof Step.Project) {
        b.append("project");
      } else if (st instanceof Step.Aggregate a) {
        b.append(a.phase().name().toLowerCase(Locale.ROOT)).append(" aggregate");
      } else if (st instanceof Step.Sort so) {
        b.append(so.keys().isEmpty() ? "limit " + so.bound() : "top " + (so.bound() < 0 ? "all" : so.bound()));
      }
    }
    return b.toString();
  }

  private static String wire(Fragment replica) {
    List<Step> st = replica.steps();
    if (!st.isEmpty() && st.get(st.size() - 1) instanceof Step.Aggregate) {
      return "partial aggregate states (" + replica.outputTypes().size() + " columns)";
    }
    return "rows (" + replica.outputTypes().size() + " columns)";
  }

  /** What a run with parallel replicas needs to keep: its source (for rows read) and snapshot. */
  public static final class Run {
    public final ParallelReplicasSource source;
    public final TableSnapshot snapshot;
    public final BatchIterator batches;

    Run(ParallelReplicasSource source, TableSnapshot snapshot, BatchIterator batches) {
      this.source = source;
      this.snapshot = snapshot;
      this.batches = batches;
    }
  }

  /**
   * Starts the fragment with parallel replicas, or returns null when it runs better here alone
   * (part metadata answers it, or the table has pending mutations, which only this node applies).
   */
  public static Run start(TravertineSession session, MergeTreeTable table, VectorizedSpec spec, ScanSource local,
      Runnable cancelCheck, MemoryTracker memory, int batchSize) throws IOException {
    if (FragmentRunner.answersFromStatistics(spec.fragment(), local)) {
      return null;
    }
    TableSnapshot snap = table.snapshot();
    try {
      if (snap.mayHavePendingMutations()) {
        snap.close();
        return null;
      }
      Fragments.Split split = Fragments.split(spec.fragment());
      SessionSettings s = session.settings();
      Map<String, String> settings = new LinkedHashMap<>();
      for (Setting setting : Settings.all()) {
        if (setting.scope() == Setting.Scope.SESSION) {
          settings.put(setting.name(), s.get(setting));
        }
      }
      var query = session.currentQuery();
      FragmentRequest request = new FragmentRequest(query == null ? "embedded" : query.id(), session.user(),
          table.definition(), table.storageLocation(), snap.parts().stream().map(PartRef::info).toList(),
          spec.scan().projection(), spec.scan().filter(), split.replica(), settings);
      List<Map.Entry<NodeExchange.Peer, ExchangeClient>> replicas = replicas(session);
      Map<String, NodeExchange.Peer> peers = new HashMap<>();
      List<ExchangeClient> clients = new ArrayList<>();
      for (var e : replicas) {
        peers.put(e.getValue().address(), e.getKey());
        clients.add(e.getValue());
      }
      // The calls end with the query's max_execution_time (the query's own check fails it first).
      long deadline = 1000 * s.getLong(Settings.MAX_EXECUTION_TIME);
      ParallelReplicasSource source = new ParallelReplicasSource(snap, request, clients, table.context(), s,
          cancelCheck, deadline, (replica, error) -> {
            NodeExchange.Peer p = peers.get(replica);
            if (p != null) {
              NodeExchange.report(p, error);
            }
          }, memory);
      BatchIterator it = FragmentRunner.run(split.initiator(), source, cancelCheck, memory, batchSize);
      return new Run(source, snap, it);
    } catch (IOException | RuntimeException e) {
      snap.close();
      throw e;
    }
  }
}
