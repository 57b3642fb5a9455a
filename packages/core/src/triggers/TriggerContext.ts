/**
 * The `initial_context` of a call placed through a trigger: the trigger's context with the request's
 * keys laid over it (a key the request names wins, also when its value is null). The merge is shallow:
 * a nested object in the request replaces the trigger's one whole, so a caller can always say exactly
 * what the agent sees under a key.
 */
export const merge = (
  triggerContext: Readonly<Record<string, unknown>>,
  requestContext: Readonly<Record<string, unknown>> | undefined
): Record<string, unknown> => ({ ...triggerContext, ...requestContext })
