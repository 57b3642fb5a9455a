// A host service that installed the packed tarballs: it runs the bundled server with plain `node`.
import { NodeRuntime } from "@effect/platform-node"
import { Server } from "@voice-agent-platform/http"
import { Layer } from "effect"

NodeRuntime.runMain(Layer.launch(Server.layer))
