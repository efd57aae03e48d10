package dev.travertine.mergetree;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the engine gets injected: the clock, the scheduler that runs background merges and
 * buffer flushes, the pool that runs scan tasks, and the event counters. Tests pass their own
 * (e.g. a manual scheduler) to drive merges and flushes deterministically.
 *
 * @param backgroundEnabled false stops automatic merges and timed flushes (tests; OPTIMIZE still works)
 */
public record EngineContext(Clock clock, ScheduledExecutorService background, ExecutorService scanPool,
    EngineEvents events, boolean backgroundEnabled) {}
