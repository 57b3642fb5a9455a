/**
 * @voice-agent-platform/contract: the Voice Agent Platform REST API's definition, shared by the server
 * (`@voice-agent-platform/http` implements it) and its clients. `Api` holds every group, endpoint, schema,
 * error and middleware tag; `Client.make` (also `@voice-agent-platform/contract/client`) is a typed client
 * made from it. Nothing here imports Node built-ins, a server, storage or a core service, so it runs in a
 * browser as well as in Node.
 */
export { Api } from "./Api.js"
export * as ApiErrors from "./errors/ApiErrors.js"
export * as Authentication from "./middleware/Authentication.js"
export * as Client from "./client/Client.js"
export * as ClientRetry from "./client/ClientRetry.js"
export * as OperatorAuthentication from "./middleware/OperatorAuthentication.js"
export * as RuntimeAuthentication from "./middleware/RuntimeAuthentication.js"
