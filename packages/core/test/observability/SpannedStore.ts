import { Effect } from "effect"

/**
 * A store whose every call is a span named `Store.operation`, as its SQL statements are on PostgreSQL
 * (`sql.execute`): the background-work tests use it to see that idle polls make no span. Test-only;
 * services name their operations' spans themselves with `Effect.fn`.
 */
export const spanned = <Store extends object>(name: string, store: Store): Store =>
  Object.fromEntries(
    Object.entries(store).map(([operation, value]) => [
      operation,
      typeof value === "function"
        ? (...args: ReadonlyArray<unknown>) => {
            const result: unknown = value(...args)
            return Effect.isEffect(result)
              ? Effect.withSpan(result, `${name}.${operation}`, { captureStackTrace: false })
              : result
          }
        : Effect.isEffect(value)
          ? Effect.withSpan(value, `${name}.${operation}`, { captureStackTrace: false })
          : value
    ])
  ) as Store
