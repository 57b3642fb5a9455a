import { Link } from "../../routing/Link.js"
import { hasScreen } from "../../routing/Routes.js"

/** Where a run's page is (the Runs screens answer it). */
export const runPath = (runId: number): string => `runs/${runId}`

/** A run by its id: a link to its page once the console has one, its id as text until then. */
export const RunLink = ({ runId }: { readonly runId: number }) =>
  hasScreen(runPath(runId)) ? <Link to={runPath(runId)}>Run {runId}</Link> : <span>Run {runId}</span>
