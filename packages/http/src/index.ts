/**
 * @voice-agent-platform/http: the Voice Agent Platform REST API on @effect/platform.
 *
 * Serve it with the bundled server (`Server.layer`, `npm start`), embed it in your own host as a web
 * handler (`WebHandler.make`) or a Node handler (`NodeHandler.make`), or compose `AppLayer.layer` with
 * your own HTTP server. `Client.make` is a typed client made from the same definition.
 */
export { Api } from "@voice-agent-platform/contract/Api.js"
export * as ApiErrors from "@voice-agent-platform/contract/errors/ApiErrors.js"
export * as AppLayer from "./AppLayer.js"
export * as Client from "@voice-agent-platform/contract/client/Client.js"
export * as ConsoleRoutes from "./console/ConsoleRoutes.js"
export * as EmbeddingOptions from "./embedding/EmbeddingOptions.js"
export * as PublicBaseUrl from "./files/PublicBaseUrl.js"
export * as NodeHandler from "./embedding/NodeHandler.js"
export * as WebHandler from "./embedding/WebHandler.js"
export * as Authentication from "./middleware/Authentication.js"
export * as OperatorAuthentication from "./middleware/OperatorAuthentication.js"
export * as RuntimeAuthentication from "./middleware/RuntimeAuthentication.js"
export * as RequestDeadline from "./middleware/RequestDeadline.js"
export * as HardenedNodeServer from "./server/HardenedNodeServer.js"
export * as Server from "./server/Server.js"
export * as ServerConfig from "./server/ServerConfig.js"
export * as NodeHostResolver from "./outbound/NodeHostResolver.js"
export * as NodeOutboundHttp from "./outbound/NodeOutboundHttp.js"
export * as AccessLog from "./observability/AccessLog.js"
export * as Logging from "./observability/Logging.js"
export * as MetricsRoute from "./observability/MetricsRoute.js"
export * as Observability from "./observability/Observability.js"
export * as Tracing from "./observability/Tracing.js"
