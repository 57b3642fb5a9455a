// A client service that installed the contract's packed tarball (not the server's): it places a call
// through the typed client and prints the finished run's transcript as JSON.
// Usage: node place-call.mjs <baseUrl> <apiKey> <number>
import * as Client from "@voice-agent-platform/contract/client"
import * as CallScript from "@voice-agent-platform/core/agents/CallScript.js"
import { Effect, Schedule, Schema } from "effect"

const [baseUrl, apiKey, phoneNumber] = process.argv.slice(2)

const program = Effect.gen(function* () {
  const client = yield* Client.make({ baseUrl, apiKey })
  const payload = Schema.decodeUnknownSync(CallScript.CallScriptRequest)({
    agent: { greeting: "Hello from a packed tarball." }
  })
  const agent = yield* client.agents.createFromScript({ payload })
  const placed = yield* client.calls.placeWithAgent({
    path: { agent_id: agent.public_id },
    payload: { phone_number: phoneNumber },
    headers: {}
  })
  const path = { agent_id: agent.public_id, run_id: placed.workflow_run_id }
  const ended = yield* client.conversations.get({ path }).pipe(
    Effect.filterOrFail(
      (run) => !["queued", "ringing", "in_progress"].includes(run.status),
      () => new Error("the call has not ended yet")
    ),
    Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.compose(Schedule.recurs(150))))
  )
  const transcript = yield* client.conversations.transcript({ path, urlParams: { expires_in: 600 } })
  return { placed, status: ended.status, turns: transcript.turns }
})

Effect.runPromise(program).then(
  (result) => console.log(JSON.stringify(result)),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
