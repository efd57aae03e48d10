package dev.travertine.mergetree;

import dev.travertine.mergetree.mutation.MutationCompiler;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the engine gets injected: the clock, the scheduler that runs background merges, mutations
 * and buffer flushes, the pool that runs scan tasks, the event counters, and the compiler of
 * mutation expressions (the engine knows no SQL). Tests pass their own (e.g. a manual scheduler)
 * to drive merges, mutations and flushes deterministically.
 *
 * @param backgroundEnabled false stops automatic merges, mutations and timed flushes (tests;
 *     OPTIMIZE and mutations_sync still work, in the caller's thread)
 */
public record EngineContext(Clock clock, ScheduledExecutorService background, ExecutorService scanPool,
    EngineEvents events, boolean backgroundEnabled, MutationCompiler mutationCompiler) {

  public EngineContext(Clock clock, ScheduledExecutorService background, ExecutorService scanPool,
      EngineEvents events, boolean backgroundEnabled) {
    this(clock, background, scanPool, events, backgroundEnabled, MutationCompiler.NONE);
  }

  public EngineContext withMutationCompiler(MutationCompiler compiler) {
    return new EngineContext(clock, background, scanPool, events, backgroundEnabled, compiler);
  }
}
