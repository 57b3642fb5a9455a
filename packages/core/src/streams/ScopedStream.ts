import { Channel, Effect, Scope, Stream } from "effect"

/**
 * `Stream.unwrapScoped` without its cost on every element: the stream `effect` makes (in a scope of its
 * own, closed with the stream's exit once it ends, fails or is released) is run as the rest of this one,
 * not flattened into it. `Stream.unwrapScoped` flattens a one-element stream of streams, so each element
 * passes one more channel (~12 Effect operations); a streamed model reply or speech pays that on every
 * network read. Same semantics: the scope closes after the inner stream's own finalizers.
 */
export const unwrapScoped = <A, E1, R1, E2, R2>(
  effect: Effect.Effect<Stream.Stream<A, E1, R1>, E2, R2>
): Stream.Stream<A, E1 | E2, Exclude<R2, Scope.Scope> | R1> =>
  Stream.fromChannel(
    Channel.acquireUseRelease(
      Scope.make(),
      (scope) => Channel.unwrap(Effect.map(Scope.extend(effect, scope), Stream.toChannel)),
      (scope, exit) => Scope.close(scope, exit)
    )
  )
