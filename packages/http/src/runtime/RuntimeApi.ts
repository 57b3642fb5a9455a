import { HttpApiGroup } from "@effect/platform"

/** Call events from out-of-process voice runtimes, authenticated with the runtime token. */
export class RuntimeApi extends HttpApiGroup.make("runtime").prefix("/runtime/v1") {}
