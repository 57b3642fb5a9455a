import type { Schema } from "../../api/Client.js"
import { Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, formatDuration, formatStatus } from "../../text/Formats.js"
import { agentPath } from "../agents/AgentPaths.js"
import { RunConversation } from "./RunConversation.js"
import { RunDelete } from "./RunDelete.js"
import { GatheredData, RunAnalysis, RunCost, RunLogs, RunSms, ToolCalls } from "./RunRecords.js"

/**
 * A run's page (`runs/42?agent_id=agent_x`): what it was, its conversation (the transcript beside the
 * recording), what the analysis made of it, its cost, the data gathered, the tools called, its logs and
 * SMS; and deleting it.
 */
export const RunScreen = ({ params, query }: ScreenProps) => {
  const runId = Number(params["runId"])
  const agentId = query.get("agent_id") ?? ""
  if (!Number.isSafeInteger(runId) || runId < 1 || agentId === "")
    return (
      <>
        <PageHeading title="Run not found" />
        <p class="empty">
          This address does not name a run and its agent. <Link to="runs">Find the run in the list</Link>.
        </p>
      </>
    )
  return <RunPage agentId={agentId} runId={runId} />
}

const RunPage = ({ agentId, runId }: { readonly agentId: string; readonly runId: number }) => {
  const run = useLoad(
    (signal) =>
      api.get("/api/v1/agents/{agent_id}/conversations/{run_id}", {
        path: { agent_id: agentId, run_id: runId },
        signal
      }),
    [agentId, runId]
  )
  return (
    <>
      <PageHeading title={`Run ${runId}`}>
        <Link to="runs" class="button secondary">
          All runs
        </Link>
        <RunDelete agentId={agentId} runId={runId} />
      </PageHeading>
      <Loaded load={run} label="Loading the run…">
        {(data) => (
          <>
            <RunFacts agentId={agentId} run={data} />
            <RunConversation agentId={agentId} run={data} />
            <RunAnalysis run={data} />
            <GatheredData data={data.gathered_context} />
            <RunCost cost={data.cost} />
            <ToolCalls logs={data.logs} />
            <RunLogs logs={data.logs} />
            <RunSms sms={data.sms} />
          </>
        )}
      </Loaded>
    </>
  )
}

const RunFacts = ({ agentId, run }: { readonly agentId: string; readonly run: Schema<"Run"> }) => {
  const agent = useLoad(
    (signal) => api.get("/api/v1/agents/{agent_id}", { path: { agent_id: agentId }, signal }),
    [agentId]
  )
  return (
    <dl class="facts">
      <div>
        <dt>Agent</dt>
        <dd>
          <Link to={agentPath(agentId)}>{agent.state === "ready" ? agent.data.name : agentId}</Link>
        </dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>{formatStatus(run.status)}</dd>
      </div>
      <div>
        <dt>Mode</dt>
        <dd>{run.mode}</dd>
      </div>
      <div>
        <dt>Phone number</dt>
        <dd>{run.phone_number ?? "—"}</dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>{formatDateTime(run.created_at)}</dd>
      </div>
      <div>
        <dt>Ended</dt>
        <dd>{formatDateTime(run.ended_at)}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>{formatDuration(run.duration_seconds)}</dd>
      </div>
    </dl>
  )
}
