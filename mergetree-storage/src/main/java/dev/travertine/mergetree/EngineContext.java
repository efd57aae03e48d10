package dev.travertine.mergetree;

import dev.travertine.mergetree.mutation.MutationCompiler;
import dev.travertine.mergetree.scan.DecodedColumnCache;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the engine gets injected: the clock, the scheduler that runs background merges, mutations
 * and buffer flushes, the pool that runs scan tasks, the event counters, the compiler of
 * mutation expressions (the engine knows no SQL) and the decoded-column cache scans share. Tests
 * pass their own (e.g. a manual scheduler) to drive merges, mutations and flushes
 * deterministically, or a cache of their own size.
 *
 * @param backgroundEnabled false stops automatic merges, mutations and timed flushes (tests;
 *     OPTIMIZE and mutations_sync still work, in the caller's thread)
 * @param columnCache the decoded-column cache ({@code use_uncompressed_cache}); the shorter
 *     constructors give a new one of {@link DecodedColumnCache#DEFAULT_MAX_BYTES}
 */
public record EngineContext(Clock clock, ScheduledExecutorService background, ExecutorService scanPool,
    EngineEvents events, boolean backgroundEnabled, MutationCompiler mutationCompiler,
    DecodedColumnCache columnCache) {

  public EngineContext(Clock clock, ScheduledExecutorService background, ExecutorService scanPool,
      EngineEvents events, boolean backgroundEnabled) {
    this(clock, background, scanPool, events, backgroundEnabled, MutationCompiler.NONE);
  }

  public EngineContext(Clock clock, ScheduledExecutorService background, ExecutorService scanPool,
      EngineEvents events, boolean backgroundEnabled, MutationCompiler mutationCompiler) {
    this(clock, background, scanPool, events, backgroundEnabled, mutationCompiler,
        new DecodedColumnCache(DecodedColumnCache.DEFAULT_MAX_BYTES, events));
  }

  public EngineContext withMutationCompiler(MutationCompiler compiler) {
    return new EngineContext(clock, background, scanPool, events, backgroundEnabled, compiler, columnCache);
  }

  public EngineContext withColumnCache(DecodedColumnCache cache) {
    return new EngineContext(clock, background, scanPool, events, backgroundEnabled, mutationCompiler, cache);
  }
}
