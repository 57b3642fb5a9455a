import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"
import { formatStatus } from "../../text/Formats.js"
import type { Tool } from "./ToolDraft.js"
import { prettyJson, testBodyOf } from "./ToolTestRequest.js"

/** What the parameters' names suggest as arguments to start from (`{"order_id": ""}`). */
const sampleArguments = (tool: Tool): string => {
  const parameters = "parameters" in tool.definition.config ? (tool.definition.config.parameters ?? []) : []
  if (parameters.length === 0) return "{}"
  const sample = Object.fromEntries(
    parameters.map((parameter) => [
      parameter.name,
      parameter.type === "number" ? 0 : parameter.type === "boolean" ? false : ""
    ])
  )
  return JSON.stringify(sample, null, 2)
}

/**
 * Runs the tool once, as an agent would during a call (`POST /tools/{tool_uuid}/test`), with the arguments
 * and initial context typed here, and shows what happened: success or the failure's kind, the receiver's
 * status, the time it took, what goes back to the model, what the agent says. A refusal (404, 409, 422)
 * shows the API's reason.
 */
export const ToolTest = ({ tool }: { readonly tool: Tool }) => {
  const [args, setArgs] = useState(() => sampleArguments(tool))
  const [initialContext, setInitialContext] = useState("{}")
  const [agentId, setAgentId] = useState("")
  const [result, setResult] = useState<Schema<"ToolTestResult"> | undefined>(undefined)
  const test = useAction()
  const submit = (event: Event) => {
    event.preventDefault()
    setResult(undefined)
    const body = testBodyOf({ arguments: args, initialContext, agentId })
    return test.run(async () => {
      if (typeof body === "string") throw new Error(body)
      setResult(
        await api.post("/api/v1/tools/{tool_uuid}/test", { path: { tool_uuid: tool.tool_uuid }, body })
      )
    })
  }
  return (
    <section aria-labelledby="tool-test-heading">
      <h2 id="tool-test-heading">Test the tool</h2>
      <p class="hint">
        Runs it once now, as an agent would during a call: an HTTP API tool really calls its URL.
      </p>
      <form onSubmit={submit} class="stacked">
        <label for="test-arguments">Arguments (JSON)</label>
        <textarea id="test-arguments" rows={4} value={args} onInput={(e) => setArgs(e.currentTarget.value)} />
        <label for="test-initial-context">Initial context (JSON)</label>
        <textarea
          id="test-initial-context"
          rows={2}
          value={initialContext}
          aria-describedby="test-initial-context-hint"
          onInput={(event) => setInitialContext(event.currentTarget.value)}
        />
        <p id="test-initial-context-hint" class="hint">
          What {"{{initial_context.key}}"} placeholders read, as a run's initial context.
        </p>
        <label for="test-agent">Agent (optional)</label>
        <input
          id="test-agent"
          value={agentId}
          aria-describedby="test-agent-hint"
          onInput={(event) => setAgentId(event.currentTarget.value)}
        />
        <p id="test-agent-hint" class="hint">
          An agent's id (agent_…) whose transfer numbers a transfer tool may use.
        </p>
        {test.error === undefined ? null : <ErrorNotice error={`The test was refused: ${test.error}`} />}
        <div class="actions">
          <button type="submit" disabled={test.busy}>
            {test.busy ? "Testing…" : "Run the test"}
          </button>
        </div>
      </form>
      <div role="status">{result === undefined ? null : <TestResult result={result} />}</div>
    </section>
  )
}

const TestResult = ({ result }: { readonly result: Schema<"ToolTestResult"> }) => (
  <div class={result.ok ? "test-result test-ok" : "test-result test-failed"}>
    <h3>
      {result.ok
        ? "The tool answered"
        : `The call failed: ${result.error === null ? "no reason given" : formatStatus(result.error.type)}`}
    </h3>
    <dl class="facts">
      <div>
        <dt>Status code</dt>
        <dd>{result.status_code === null ? "—" : String(result.status_code)}</dd>
      </div>
      <div>
        <dt>Took</dt>
        <dd>{Math.round(result.duration_ms)} ms</dd>
      </div>
      {result.error === null ? null : (
        <div>
          <dt>Why</dt>
          <dd>{result.error.detail}</dd>
        </div>
      )}
      {result.message === null ? null : (
        <div>
          <dt>The agent says</dt>
          <dd>{result.message}</dd>
        </div>
      )}
    </dl>
    <h4>What goes back to the agent</h4>
    <pre class="prompt test-response" tabIndex={0} aria-label="The tool's answer">
      {prettyJson(result.response)}
    </pre>
  </div>
)
