import { Link } from "../../routing/Link.js"
import { hasScreen } from "../../routing/Routes.js"

/**
 * Where a run's page is: `runs/42?agent_id=agent_x`. A run's id is the organization's, but the API reads a
 * run under its agent (`GET /agents/{agent_id}/conversations/{run_id}`), so the address names the agent too.
 */
export const runPath = (runId: number, agentId: string): string =>
  `runs/${runId}?agent_id=${encodeURIComponent(agentId)}`

/**
 * A run by its id: a link to its page once the console has one, its id as text until then, and as text
 * where its agent is not known (a webhook delivery names the run only).
 */
export const RunLink = ({
  runId,
  agentId
}: {
  readonly runId: number
  readonly agentId?: string | undefined
}) =>
  agentId !== undefined && hasScreen(`runs/${runId}`) ? (
    <Link to={runPath(runId, agentId)}>Run {runId}</Link>
  ) : (
    <span>Run {runId}</span>
  )
