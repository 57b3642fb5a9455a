import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { DiffView } from "../../components/DiffView.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { FilterSelect } from "../../components/FilterSelect.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { oneOf, pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, formatCount } from "../../text/Formats.js"
import { RunLink } from "../runs/RunLink.js"
import { acceptedPrompt } from "./AcceptedPrompt.js"
import { agentPath } from "./AgentPaths.js"

type Improvement = Schema<"Improvement">

const statuses = ["pending", "accepted", "dismissed"] as const
const pageSize = 20

/**
 * An agent's improvement suggestions: listed by status (in the address), generated from its recent
 * conversations, accepted (after the change to the prompt is shown) or dismissed.
 */
export const ImprovementsScreen = ({ params, query }: ScreenProps) => {
  const agentId = params["agentId"]!
  const page = pageOf(query)
  const status = oneOf(query, "status", statuses)
  const agent = useLoad(
    (signal) => api.get("/api/v1/agents/{agent_id}", { path: { agent_id: agentId }, signal }),
    []
  )
  const improvements = useLoad(
    (signal) =>
      api.get("/api/v1/agents/{agent_id}/improvements", {
        path: { agent_id: agentId },
        query: { page, limit: pageSize, status },
        signal
      }),
    [page, status]
  )
  const [reviewing, setReviewing] = useState<Improvement | undefined>(undefined)
  const [said, setSaid] = useState("")
  const generate = useAction()
  const decide = useAction()

  const generateNow = () =>
    generate.run(async () => {
      setSaid("")
      const answer = await api.post("/api/v1/agents/{agent_id}/improvements/generate", {
        path: { agent_id: agentId }
      })
      setSaid(
        answer.items.length === 0
          ? "No new suggestion: the agent has no conversation to learn from yet, or nothing to add."
          : `${formatCount(answer.items.length)} new suggestion${answer.items.length === 1 ? "" : "s"}.`
      )
      improvements.reload()
    })
  const decideOn = (improvement: Improvement, decision: "accept" | "dismiss") =>
    decide.run(async () => {
      const path = { agent_id: agentId, improvement_id: improvement.id }
      if (decision === "accept")
        await api.post("/api/v1/agents/{agent_id}/improvements/{improvement_id}/accept", { path })
      else await api.post("/api/v1/agents/{agent_id}/improvements/{improvement_id}/dismiss", { path })
      setReviewing(undefined)
      setSaid(decision === "accept" ? "Accepted: the prompt has a new version." : "Dismissed.")
      improvements.reload()
      agent.reload()
    })

  return (
    <Loaded load={agent}>
      {(data) => (
        <>
          <PageHeading title={`Improvement suggestions for ${data.name}`}>
            <Link to={agentPath(data.public_id)} class="button secondary">
              Back to the agent
            </Link>
          </PageHeading>
          <p>
            Suggestions are additions to the prompt, drawn from the agent's recent conversations. Nothing
            changes until you accept one.
          </p>
          <div class="actions">
            <button type="button" onClick={generateNow} disabled={generate.busy}>
              {generate.busy ? "Generating…" : "Generate suggestions"}
            </button>
          </div>
          {generate.error === undefined ? null : <ErrorNotice error={generate.error} />}
          {decide.error === undefined || reviewing !== undefined ? null : (
            <ErrorNotice error={decide.error} />
          )}
          <p class="status-line" role="status">
            {said}
          </p>
          <div class="filters">
            <FilterSelect
              name="status"
              label="Status"
              options={statuses.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) }))}
            />
          </div>
          <Loaded load={improvements}>
            {(list) => (
              <PagedTable<Improvement>
                caption="Suggestions"
                page={list}
                rowKey={(improvement) => improvement.id}
                empty="No suggestions here."
                columns={[
                  {
                    header: "Suggestion",
                    cell: (improvement) => (
                      <>
                        <p class="prose">{improvement.text}</p>
                        {improvement.rationale === null ? null : (
                          <p class="muted prose">Why: {improvement.rationale}</p>
                        )}
                      </>
                    )
                  },
                  { header: "Status", cell: (improvement) => improvement.status },
                  {
                    header: "From",
                    cell: (improvement) =>
                      improvement.source_run_id === null ? (
                        "—"
                      ) : (
                        <RunLink runId={improvement.source_run_id} agentId={agentId} />
                      )
                  },
                  { header: "Created", cell: (improvement) => formatDateTime(improvement.created_at) },
                  {
                    header: "Decision",
                    cell: (improvement) =>
                      improvement.status !== "pending" ? (
                        formatDateTime(improvement.decided_at)
                      ) : (
                        <div class="row-actions">
                          <button
                            type="button"
                            class="small"
                            onClick={() => (decide.clear(), setReviewing(improvement))}
                          >
                            Review and accept
                          </button>
                          <button
                            type="button"
                            class="secondary small"
                            disabled={decide.busy}
                            onClick={() => decideOn(improvement, "dismiss")}
                          >
                            Dismiss
                          </button>
                        </div>
                      )
                  }
                ]}
              />
            )}
          </Loaded>
          <ConfirmDialog
            open={reviewing !== undefined}
            title="Accept this suggestion?"
            confirmLabel="Accept and make a new version"
            busy={decide.busy}
            onCancel={() => setReviewing(undefined)}
            onConfirm={() => reviewing !== undefined && decideOn(reviewing, "accept")}
          >
            {reviewing === undefined ? null : (
              <>
                <p>Accepting adds the suggestion to the end of the system prompt, as a new version:</p>
                <DiffView
                  label="System prompt: now and once accepted"
                  before={data.workflow_definition.system_prompt}
                  after={acceptedPrompt(data.workflow_definition.system_prompt, reviewing.text)}
                />
                {decide.error === undefined ? null : <ErrorNotice error={decide.error} />}
              </>
            )}
          </ConfirmDialog>
        </>
      )}
    </Loaded>
  )
}
