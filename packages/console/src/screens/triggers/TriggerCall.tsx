import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { idempotencyKey } from "../../data/idempotencyKey.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { api } from "../../session/Session.js"
import { formatStatus } from "../../text/Formats.js"
import { RunLink } from "../runs/RunLink.js"
import { contextFrom } from "./TriggerContext.js"

/** The most active triggers offered (the list's largest page). */
const triggersOffered = 100

/**
 * One call placed through an active trigger, as an integration would: the number, and context laid over
 * the trigger's. The API's refusals (Do not call, calling hours, busy channels) are shown as it says them.
 */
export const TriggerCall = ({ version }: { readonly version: number }) => {
  const triggers = useLoad(
    (signal) => api.get("/api/v1/triggers", { query: { status: "active", limit: triggersOffered }, signal }),
    [version]
  )
  return (
    <section aria-labelledby="trigger-call-heading" class="panel">
      <h2 id="trigger-call-heading">Place a call through a trigger</h2>
      <Loaded load={triggers} label="Loading the triggers…">
        {(page) =>
          page.items.length === 0 ? (
            <p class="empty">No active trigger: create one above.</p>
          ) : (
            <TriggerCallForm triggers={page.items} />
          )
        }
      </Loaded>
    </section>
  )
}

const TriggerCallForm = ({ triggers }: { readonly triggers: ReadonlyArray<Schema<"Trigger">> }) => {
  const [triggerId, setTriggerId] = useState("")
  const [number, setNumber] = useState("")
  const [context, setContext] = useState("")
  const [placed, setPlaced] = useState<Schema<"PlacedCall"> | undefined>(undefined)
  const action = useAction()
  const place = (event: Event) => {
    event.preventDefault()
    setPlaced(undefined)
    return action.run(async () => {
      if (number.trim() === "") throw new Error("Give the number to call.")
      const parsed = contextFrom(context)
      if ("error" in parsed) throw new Error(parsed.error)
      const chosen = triggers.some((trigger) => trigger.trigger_id === triggerId)
        ? triggerId
        : triggers[0]!.trigger_id
      setPlaced(
        await api.post("/api/v1/triggers/{trigger_id}/calls", {
          path: { trigger_id: chosen },
          body: {
            phone_number: number.trim(),
            ...(parsed.context === undefined ? {} : { initial_context: parsed.context })
          },
          headers: { "idempotency-key": idempotencyKey() }
        })
      )
    })
  }
  return (
    <form class="stacked" onSubmit={place}>
      <label for="call-trigger">Trigger</label>
      <select
        id="call-trigger"
        value={triggerId}
        onChange={(event) => setTriggerId(event.currentTarget.value)}
      >
        {triggers.map((trigger) => (
          <option key={trigger.trigger_id} value={trigger.trigger_id}>
            {trigger.name}
          </option>
        ))}
      </select>
      <label for="call-number">Number to call</label>
      <input
        id="call-number"
        type="tel"
        value={number}
        aria-describedby="call-number-hint"
        onInput={(event) => setNumber(event.currentTarget.value)}
      />
      <p id="call-number-hint" class="hint">
        In international form, e.g. +48 500 100 200.
      </p>
      <label for="call-context">Context for this call (optional JSON)</label>
      <textarea
        id="call-context"
        rows={2}
        value={context}
        onInput={(event) => setContext(event.currentTarget.value)}
      />
      {action.error === undefined ? null : <ErrorNotice error={action.error} />}
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          {action.busy ? "Placing the call…" : "Place the call"}
        </button>
      </div>
      <p class="status-line" role="status">
        {placed === undefined ? null : (
          <>
            Call to {placed.phone_number} placed ({formatStatus(placed.status)}):{" "}
            <RunLink runId={placed.workflow_run_id} />.
          </>
        )}
      </p>
    </form>
  )
}
