package dev.travertine.mergetree.mutation;

import dev.travertine.mergetree.schema.TableSchema;

/**
 * Turns a mutation's SQL text into vector code. The engine knows no SQL expressions: the adapter
 * injects its compiler (see EngineContext). Compiling validates: unknown columns or type
 * mismatches fail here, before anything is recorded.
 */
@FunctionalInterface
public interface MutationCompiler {
  CompiledMutation compile(TableSchema schema, MutationCommand command);

  /** For engines without SQL: every mutation is refused. */
  MutationCompiler NONE = (schema, command) -> {
    throw new UnsupportedOperationException("Mutations need a compiler for their expressions (none configured)");
  };
}
