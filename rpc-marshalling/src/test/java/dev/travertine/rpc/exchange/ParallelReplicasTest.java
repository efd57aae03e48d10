package dev.travertine.rpc.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.AggCall.AggFunction;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.Op;
import dev.travertine.exec.op.Fragment;
import dev.travertine.exec.op.FragmentRunner;
import dev.travertine.exec.op.Fragments;
import dev.travertine.exec.op.MemoryTracker;
import dev.travertine.exec.op.ScanSource;
import dev.travertine.exec.op.Step;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.EngineContext;
import dev.travertine.mergetree.EngineEvents;
import dev.travertine.mergetree.Inserter;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.RowFilter;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes in one JVM on loopback ports: the initiator (which owns the table) and two replicas
 * that read its parts from the shared directory, over real gRPC. Each fragment's answer with
 * parallel replicas equals the initiator's answer alone, with parallel marshalling on and off;
 * a refused or dead replica's tasks go to the others; a cancelled query stops.
 */
class ParallelReplicasTest {
  private static final String SECRET = "cluster-secret";
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  @TempDir static Path dir;
  private static Database db;
  private static MergeTreeTable table;
  private static final List<Node> nodes = new ArrayList<>();
  private static final List<ExchangeClient> clients = new ArrayList<>();

  private record Node(EngineContext ctx, ReplicaRunner runner, ExecutorService executor, ExchangeServer server) {}

  private static EngineContext context() {
    return new EngineContext(Clock.systemUTC(), Executors.newSingleThreadScheduledExecutor(),
        Executors.newCachedThreadPool(), new EngineEvents(), false);
  }

  static final TableSchema SCHEMA = new TableSchema(List.of(
      new Column("k", DataType.of(TypeKind.INTEGER), false),
      new Column("v", DataType.of(TypeKind.BIGINT), true),
      new Column("s", DataType.varchar(-1), true),
      new Column("d", DataType.decimal(12, 2), true),
      new Column("x", DataType.of(TypeKind.DOUBLE), true)));

  @BeforeAll static void start() throws IOException {
    db = Database.open(dir.resolve("initiator"), context());
    db.createTable(new TableDefinition("t", SCHEMA, List.of("k"), null, List.of(),
        Map.of("index_granularity", "1024", "min_insert_rows_for_direct_part", "1"), List.of()), false);
    table = db.table("t");
    table.stopMerges(true);
    Random rnd = new Random(42);
    int k = 0;
    for (int part = 0; part < 14; part++) {
      try (Inserter ins = table.newInserter(1 << 22)) {
        int n = 3000 + rnd.nextInt(4000);
        for (int i = 0; i < n; i++, k++) {
          ins.add(new Object[] {k, rnd.nextInt(10) == 0 ? null : (long) rnd.nextInt(50_000),
              rnd.nextInt(8) == 0 ? null : "s" + rnd.nextInt(3000),
              rnd.nextInt(9) == 0 ? null : BigDecimal.valueOf(rnd.nextInt(1_000_000), 2),
              rnd.nextInt(7) == 0 ? null : rnd.nextDouble()});
        }
        ins.commit();
      }
    }
    for (int i = 0; i < 2; i++) {
      EngineContext ctx = context();
      ReplicaRunner runner = new ReplicaRunner(ctx, Map.of());
      ExecutorService ex = Executors.newCachedThreadPool();
      ExchangeServer server = ExchangeServer.start("127.0.0.1", 0, SECRET, runner, ex);
      nodes.add(new Node(ctx, runner, ex, server));
      clients.add(new ExchangeClient("127.0.0.1", server.port(), SECRET));
    }
  }

  @AfterAll static void stop() throws IOException {
    clients.forEach(ExchangeClient::close);
    for (Node n : nodes) {
      n.server().close();
      n.runner().close();
      n.executor().shutdownNow();
      n.ctx().scanPool().shutdownNow();
      n.ctx().background().shutdownNow();
    }
    db.close();
  }

  // ------------------------------------------------------------------ fragments

  private static final DataType INT = DataType.of(TypeKind.INTEGER);
  private static final DataType BIG = DataType.of(TypeKind.BIGINT);
  private static final DataType STR = DataType.varchar(-1);
  private static final DataType DEC = DataType.decimal(12, 2);
  private static final DataType DBL = DataType.of(TypeKind.DOUBLE);
  private static final List<DataType> ROW = List.of(INT, BIG, STR, DEC, DBL);
  private static final int[] ALL = {0, 1, 2, 3, 4};

  private static AggCall call(AggFunction f, int arg, boolean distinct, DataType t) {
    return new AggCall(f, arg, distinct, -1, t);
  }

  private static final List<AggCall> CALLS = List.of(call(AggFunction.COUNT, -1, false, BIG),
      call(AggFunction.SUM, 1, false, BIG), call(AggFunction.AVG, 1, false, DBL), call(AggFunction.MIN, 2, false, STR),
      call(AggFunction.MAX, 2, false, STR), call(AggFunction.COUNT, 1, true, BIG), call(AggFunction.COUNT, 2, true, BIG),
      call(AggFunction.SUM, 3, false, DataType.decimal(38, 2)), call(AggFunction.MAX, 3, false, DEC),
      call(AggFunction.SUM, 4, false, DBL));

  private static List<DataType> aggTypes(List<DataType> keys) {
    List<DataType> t = new ArrayList<>(keys);
    CALLS.forEach(c -> t.add(c.type()));
    return t;
  }

  /** GROUP BY s: a string key of a few thousand groups, every kind of state. */
  static Fragment groupByString() {
    return new Fragment(ALL, List.of(new Step.Aggregate(new int[] {2}, CALLS)), List.of(ROW, aggTypes(List.of(STR))));
  }

  /** WHERE v > 20000 GROUP BY k (many groups: the partitioned merge) . */
  static Fragment groupByKeyFiltered() {
    Expr cond = new Expr.Call(Op.GT, List.of(new Expr.Column(1, BIG, true), new Expr.Constant(20_000L, BIG)),
        DataType.of(TypeKind.BOOLEAN), true);
    return new Fragment(ALL, List.of(new Step.Filter(cond), new Step.Aggregate(new int[] {0}, CALLS)),
        List.of(ROW, ROW, aggTypes(List.of(INT))));
  }

  /** No GROUP BY. */
  static Fragment total() {
    return new Fragment(ALL, List.of(new Step.Aggregate(new int[0], CALLS)), List.of(ROW, aggTypes(List.of())));
  }

  /** ORDER BY v DESC NULLS LAST, k LIMIT 25 OFFSET 5. */
  static Fragment topN() {
    return new Fragment(ALL, List.of(new Step.Sort(List.of(new Step.SortKey(1, true, false),
        new Step.SortKey(0, false, false)), 5, 25)), List.of(ROW, ROW));
  }

  /** WHERE k % 10 = 3, the columns k, v * 2, s: rows. */
  static Fragment rows() {
    Expr mod = new Expr.Call(Op.MOD, List.of(new Expr.Column(0, INT, false), new Expr.Constant(10, INT)), INT, false);
    Expr cond = new Expr.Call(Op.EQ, List.of(mod, new Expr.Constant(3, INT)), DataType.of(TypeKind.BOOLEAN), false);
    Expr twice = new Expr.Call(Op.TIMES, List.of(new Expr.Column(1, BIG, true), new Expr.Constant(2L, BIG)), BIG, true);
    return new Fragment(ALL, List.of(new Step.Filter(cond), new Step.Project(List.of(new Expr.Column(0, INT, false),
        twice, new Expr.Column(2, STR, true)))), List.of(ROW, ROW, List.of(INT, BIG, STR)));
  }

  // ------------------------------------------------------------------ running

  private static SessionSettings settings(boolean parallelMarshalling, String codec) {
    SessionSettings s = new SessionSettings();
    s.set("max_threads", "2");
    s.set("max_block_size", "1000");
    s.set("enable_parallel_blocks_marshalling", parallelMarshalling ? "1" : "0");
    s.set("network_compression_method", codec);
    return s;
  }

  private static Map<String, String> asMap(SessionSettings s) {
    return Map.of("max_threads", s.get(dev.travertine.mergetree.settings.Settings.MAX_THREADS),
        "max_block_size", s.get(dev.travertine.mergetree.settings.Settings.MAX_BLOCK_SIZE),
        "enable_parallel_blocks_marshalling",
        s.get(dev.travertine.mergetree.settings.Settings.ENABLE_PARALLEL_BLOCKS_MARSHALLING),
        "network_compression_method", s.get(dev.travertine.mergetree.settings.Settings.NETWORK_COMPRESSION_METHOD));
  }

  /** The fragment on the initiator alone. */
  private static List<String> alone(Fragment f) throws IOException {
    ScanSource src = new ScanSource() {
      @Override public BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) {
        TableScanner s = TableScanner.open(table.snapshot(),
            new ScanRequest(ALL, null, limit, false, 2, 1000, true,
                dev.travertine.mergetree.scan.ReadSettings.DEFAULT, stages, prewhere), table.context());
        return BatchIterator.of(s, null);
      }

      @Override public Statistics statistics() {
        return null;
      }
    };
    return rowsOf(FragmentRunner.run(f, src, () -> {}, MemoryTracker.unlimited(), 1000), f.outputTypes());
  }

  private static ParallelReplicasSource source;

  /** The fragment split over the initiator and {@code replicas}. */
  private static List<String> distributed(Fragment f, List<ExchangeClient> replicas, SessionSettings s,
      Runnable cancelCheck) throws IOException {
    Fragments.Split split = Fragments.split(f);
    try (TableSnapshot snap = table.snapshot()) {
      FragmentRequest req = new FragmentRequest("q-" + System.nanoTime(), "default", table.definition(),
          table.storageLocation(), snap.parts().stream().map(PartRef::info).toList(), ALL, (Predicate) null,
          split.replica(), asMap(s));
      source = new ParallelReplicasSource(snap, req, replicas, table.context(), s, cancelCheck, 60_000);
      return rowsOf(FragmentRunner.run(split.initiator(), source, cancelCheck, MemoryTracker.unlimited(), 1000),
          f.outputTypes());
    }
  }

  private static List<String> rowsOf(BatchIterator it, List<DataType> types) throws IOException {
    List<String> out = new ArrayList<>();
    try (it) {
      Batch b;
      while ((b = it.next()) != null) {
        for (int k = 0; k < b.size(); k++) {
          StringBuilder row = new StringBuilder();
          for (int c = 0; c < types.size(); c++) {
            Object v = Vectors.get(b.cols()[c], types.get(c).kind(), b.sel()[k]);
            if (v instanceof Double d) {
              v = Math.round(d * 1e6) / 1e6; // sums of doubles in another order
            }
            row.append(v).append('|');
          }
          out.add(row.toString());
        }
      }
    }
    return out;
  }

  private static List<String> sorted(List<String> rows) {
    List<String> s = new ArrayList<>(rows);
    s.sort(null);
    return s;
  }

  @Test void aggregatesEqualTheInitiatorAlone() throws IOException {
    int tasks;
    try (TableSnapshot snap = table.snapshot()) {
      tasks = TableScanner.taskKeys(snap, null, true).size();
    }
    Map<String, Integer> readByReplicas = new java.util.HashMap<>();
    for (Fragment f : List.of(groupByString(), groupByKeyFiltered(), total())) {
      List<String> expected = sorted(alone(f));
      assertTrue(expected.size() >= 1);
      for (boolean parallel : new boolean[] {true, false}) {
        for (String codec : new String[] {"lz4", "zstd", "none"}) {
          assertEquals(expected, sorted(distributed(f, clients, settings(parallel, codec), () -> {})),
              f.steps() + " parallel marshalling " + parallel + ", " + codec);
          Map<String, Integer> handed = source.coordinator().handedOut();
          assertEquals(tasks, handed.values().stream().mapToInt(Integer::intValue).sum(), "every task once: " + handed);
          handed.forEach((k, v) -> readByReplicas.merge(k, v, Integer::sum));
        }
      }
    }
    // Which node reads which task is decided on demand; over 18 queries every replica reads some.
    for (ExchangeClient c : clients) {
      assertTrue(readByReplicas.getOrDefault(c.address(), 0) > 0, "replica " + c.address() + " read nothing: "
          + readByReplicas);
    }
  }

  @Test void topNAndRowsEqualTheInitiatorAlone() throws IOException {
    List<String> top = alone(topN());
    assertEquals(25, top.size());
    List<String> rows = sorted(alone(rows()));
    assertTrue(rows.size() > 1000);
    for (boolean parallel : new boolean[] {true, false}) {
      assertEquals(top, distributed(topN(), clients, settings(parallel, "lz4"), () -> {}), "top-N order kept");
      assertEquals(rows, sorted(distributed(rows(), clients, settings(parallel, "lz4"), () -> {})));
    }
  }

  @Test void aRefusedOrDeadReplicaLosesNothing() throws IOException {
    List<String> expected = sorted(alone(groupByString()));
    try (ExchangeClient wrongSecret = new ExchangeClient("127.0.0.1", nodes.get(0).server().port(), "not-it");
        ExchangeClient dead = new ExchangeClient("127.0.0.1", freePort(), SECRET)) {
      List<ExchangeClient> replicas = List.of(clients.get(1), wrongSecret, dead);
      assertEquals(expected, sorted(distributed(groupByString(), replicas, settings(true, "lz4"), () -> {})));
      Map<String, Integer> handed = source.coordinator().handedOut();
      assertEquals(0, handed.getOrDefault(wrongSecret.address(), 0) + handed.getOrDefault(dead.address(), 0),
          "refused and dead replicas get no tasks: " + handed);
    }
  }

  @Test void aPeerWithoutTheSecretIsRefused() throws Exception {
    try (ExchangeClient wrong = new ExchangeClient("127.0.0.1", nodes.get(0).server().port(), "not-it")) {
      java.util.concurrent.CompletableFuture<Throwable> error = new java.util.concurrent.CompletableFuture<>();
      Fragments.Split split = Fragments.split(total());
      FragmentRequest req = new FragmentRequest("q", "default", table.definition(), table.storageLocation(),
          List.of(), ALL, null, split.replica(), Map.of());
      wrong.start(req, 10_000, 4, new ExchangeClient.Listener() {
        @Override public void onBlock(ExchangeClient.Call call, byte[] block) {
          error.complete(new AssertionError("a block came"));
        }

        @Override public List<String> onNeedTasks() {
          error.complete(new AssertionError("the replica asked for tasks"));
          return List.of();
        }

        @Override public void onDone(long rows, long bytes) {
          error.complete(new AssertionError("the replica ran"));
        }

        @Override public void onError(Throwable t) {
          error.complete(t);
        }
      });
      Throwable t = error.get(30, java.util.concurrent.TimeUnit.SECONDS);
      assertTrue(t instanceof io.grpc.StatusRuntimeException s
          && s.getStatus().getCode() == io.grpc.Status.Code.UNAUTHENTICATED, String.valueOf(t));
      assertTrue(t.getMessage().contains("wrong cluster secret"), t.getMessage());
    }
  }

  @Test void aCancelledQueryStops() {
    int[] checks = {0};
    RuntimeException e = assertThrows(RuntimeException.class, () -> distributed(rows(), clients, settings(true, "lz4"),
        () -> {
          if (++checks[0] > 3) {
            throw new IllegalStateException("Query cancelled");
          }
        }));
    assertTrue(e.getMessage().contains("cancelled"), e.getMessage());
  }

  /** How a {@link FakeReplica} misbehaves once it holds read tasks. */
  enum Fault { DIES, STALLS, SENDS_A_CORRUPT_BLOCK, SENDS_AN_EMPTY_BLOCK_THEN_DIES }

  /**
   * A node that speaks the exchange protocol and misbehaves: it takes read tasks like any replica,
   * then dies, goes silent, or sends a damaged or partial result.
   */
  static final class FakeReplica implements AutoCloseable {
    final io.grpc.Server server;
    final java.util.concurrent.atomic.AtomicInteger tasksTaken = new java.util.concurrent.atomic.AtomicInteger();

    FakeReplica(Fault fault) throws IOException {
      io.grpc.ServerServiceDefinition service = io.grpc.ServerServiceDefinition.builder(ExchangeProtocol.SERVICE)
          .addMethod(ExchangeProtocol.RUN, io.grpc.stub.ServerCalls.asyncBidiStreamingCall(out ->
              new io.grpc.stub.StreamObserver<byte[]>() {
                @Override public void onNext(byte[] m) {
                  try {
                    byte type = ExchangeProtocol.type(m);
                    if (type == ExchangeProtocol.REQUEST) {
                      out.onNext(ExchangeProtocol.control(ExchangeProtocol.NEED_TASKS));
                      return;
                    }
                    List<String> keys = ExchangeProtocol.readTasks(m);
                    tasksTaken.addAndGet(keys.size());
                    switch (fault) {
                      case DIES -> out.onError(io.grpc.Status.UNAVAILABLE.withDescription("node died")
                          .asRuntimeException());
                      case STALLS -> { } // holds its tasks and says nothing more
                      case SENDS_A_CORRUPT_BLOCK -> {
                        byte[] junk = new byte[64];
                        new Random(7).nextBytes(junk);
                        junk[0] = 'T';
                        junk[1] = 'R';
                        junk[2] = 'V';
                        junk[3] = 'B';
                        out.onNext(junk);
                      }
                      case SENDS_AN_EMPTY_BLOCK_THEN_DIES -> {
                        out.onNext(new dev.travertine.rpc.block.BlockWriter(dev.travertine.rpc.block.Codec.LZ4, 1)
                            .marshal(0, List.of(), List.of(), new org.apache.hadoop.hive.ql.exec.vector.ColumnVector[0],
                                new int[0], 0));
                        out.onError(io.grpc.Status.UNAVAILABLE.withDescription("node died").asRuntimeException());
                      }
                    }
                  } catch (IOException e) {
                    out.onError(io.grpc.Status.INVALID_ARGUMENT.asRuntimeException());
                  }
                }

                @Override public void onError(Throwable t) {}

                @Override public void onCompleted() {}
              }))
          .build();
      server = io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
          .forAddress(new java.net.InetSocketAddress("127.0.0.1", 0)).addService(service).build().start();
    }

    @Override public void close() {
      server.shutdownNow();
    }
  }

  @Test void aReplicaThatDiesOrStallsHoldingTasksLosesNothing() throws IOException {
    List<String> expected = sorted(alone(groupByKeyFiltered()));
    for (Fault f : List.of(Fault.DIES, Fault.STALLS)) {
      // Whether the fake asks before the others have taken every task is a race: the answer must
      // be right every time, and within a few tries the fake must have held tasks when it failed.
      int tookTasks = 0;
      for (int attempt = 0; attempt < 6 && tookTasks == 0; attempt++) {
        try (FakeReplica fake = new FakeReplica(f);
            ExchangeClient client = new ExchangeClient("127.0.0.1", fake.server.getPort(), SECRET)) {
          SessionSettings s = settings(true, "lz4");
          s.set("receive_timeout", "1");
          long t0 = System.nanoTime();
          assertEquals(expected, sorted(distributed(groupByKeyFiltered(), List.of(clients.get(0), client), s,
              () -> {})), f.toString());
          assertTrue(System.nanoTime() - t0 < 30_000_000_000L, f + ": took too long");
          tookTasks = fake.tasksTaken.get();
        }
      }
      assertTrue(tookTasks > 0, f + ": the fake replica never held a task");
    }
  }

  @Test void aDamagedOrPartialResultFailsTheQueryClearly() throws IOException {
    for (Fault f : List.of(Fault.SENDS_A_CORRUPT_BLOCK, Fault.SENDS_AN_EMPTY_BLOCK_THEN_DIES)) {
      try (FakeReplica fake = new FakeReplica(f);
          ExchangeClient client = new ExchangeClient("127.0.0.1", fake.server.getPort(), SECRET)) {
        Exception e = assertThrows(Exception.class,
            () -> distributed(groupByKeyFiltered(), List.of(clients.get(0), client), settings(true, "lz4"), () -> {}));
        String msg = String.valueOf(e.getMessage());
        assertTrue(msg.contains("Replica " + client.address()), f + ": " + msg);
        assertTrue(f == Fault.SENDS_A_CORRUPT_BLOCK ? msg.contains("Corrupt block")
            : msg.contains("failed after sending part of its result"), f + ": " + msg);
      }
    }
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
