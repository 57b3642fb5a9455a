import { CallScript } from "@voice-agent-platform/core"
import { ApiErrors } from "@voice-agent-platform/http"
import * as Client from "@voice-agent-platform/http/embedding/Client.js"
import { Config, Effect, Schedule, Schema } from "effect"

/**
 * A service calling the API with the typed client: it makes an agent, places a call (429s are retried
 * after `Retry-After`, with an `Idempotency-Key` the client generates), waits for the end and prints the
 * transcript. Outside calling hours it prints when to call again. Settings: `VAP_BASE_URL`,
 * `VAP_API_KEY`, `PHONE_NUMBER`.
 */
const program = Effect.gen(function* () {
  const baseUrl = yield* Config.string("VAP_BASE_URL").pipe(Config.withDefault("http://127.0.0.1:8080"))
  const apiKey = yield* Config.string("VAP_API_KEY")
  const phoneNumber = yield* Config.string("PHONE_NUMBER").pipe(Config.withDefault("+48 500 100 200"))
  const client = yield* Client.make({ baseUrl, apiKey, retry: { maxAttempts: 5 } })

  const payload = Schema.decodeUnknownSync(CallScript.CallScriptRequest)({
    agent: { greeting: "Hello, this is the typed client example." },
    agent_name: "Typed client example"
  })
  const agent = yield* client.agents.createFromScript({ payload })
  const placed = yield* client.calls.placeWithAgent({
    path: { agent_id: agent.public_id },
    payload: { phone_number: phoneNumber },
    headers: {}
  })
  console.log(`placed call ${placed.workflow_run_id} to ${placed.phone_number}`)

  const path = { agent_id: agent.public_id, run_id: placed.workflow_run_id }
  const ended = yield* client.conversations.get({ path }).pipe(
    Effect.filterOrFail(
      (run) => !["queued", "ringing", "in_progress"].includes(run.status),
      () => new Error("the call has not ended")
    ),
    Effect.retry(Schedule.spaced("500 millis").pipe(Schedule.compose(Schedule.recurs(120))))
  )
  console.log(`the call ended ${ended.status}`)
  const transcript = yield* client.conversations.transcript({ path, urlParams: { expires_in: 600 } })
  for (const turn of transcript.turns) console.log(`${turn.role}: ${turn.text}`)
}).pipe(
  Effect.catchIf(
    (error): error is ApiErrors.OutsideCallingHours => error instanceof ApiErrors.OutsideCallingHours,
    (refusal) =>
      Effect.sync(() => console.log(`outside calling hours: call again at ${refusal.detail.retry_at}`))
  )
)

Effect.runPromise(program).catch((error) => {
  console.error(error)
  process.exit(1)
})
