import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import * as Server from "./Server.js"

// `npm start`: run the bundled server until SIGTERM or SIGINT.
NodeRuntime.runMain(Layer.launch(Server.layer))
