import type { Schema } from "../../api/Client.js"
import { DataTable } from "../../components/DataTable.js"
import { formatDateTime, formatMoney, textOf } from "../../text/Formats.js"

type Run = Schema<"Run">
type LogLine = Run["logs"][number]
type ToolCall = NonNullable<LogLine["tool_call"]>

/** What the analysis wrote after the run: its state, the summary, and the disposition. */
export const RunAnalysis = ({ run }: { readonly run: Run }) => (
  <section aria-labelledby="analysis-heading">
    <h2 id="analysis-heading">Analysis</h2>
    <dl class="facts">
      <div>
        <dt>Analysis</dt>
        <dd>{run.analysis_status === null ? "after the run ends" : run.analysis_status}</dd>
      </div>
      {run.analysis_error === null ? null : (
        <div>
          <dt>Why it failed</dt>
          <dd>{run.analysis_error}</dd>
        </div>
      )}
      <div>
        <dt>Disposition</dt>
        <dd>{run.disposition ?? "—"}</dd>
      </div>
      <div>
        <dt>Summary</dt>
        <dd class="prose">{run.summary ?? "—"}</dd>
      </div>
    </dl>
  </section>
)

/** What the run cost: the amount, its parts and the language-model tokens. */
export const RunCost = ({ cost }: { readonly cost: Run["cost"] }) => (
  <section aria-labelledby="cost-heading">
    <h2 id="cost-heading">Cost</h2>
    {cost.amount === null ? <p class="empty">The run is billed when it ends.</p> : null}
    <dl class="facts">
      <div>
        <dt>In all</dt>
        <dd>{formatMoney(cost.amount, cost.currency)}</dd>
      </div>
      <div>
        <dt>Telephony</dt>
        <dd>{formatMoney(cost.breakdown.telephony, cost.currency)}</dd>
      </div>
      <div>
        <dt>Language model</dt>
        <dd>{formatMoney(cost.breakdown.language_model, cost.currency)}</dd>
      </div>
      <div>
        <dt>Tokens</dt>
        <dd>
          {cost.tokens.prompt.toLocaleString("en-GB")} prompt ·{" "}
          {cost.tokens.completion.toLocaleString("en-GB")} completion
        </dd>
      </div>
    </dl>
  </section>
)

/** The data gathered in the conversation, each value as text. */
export const GatheredData = ({ data }: { readonly data: Run["gathered_context"] }) => {
  const entries = Object.entries(data)
  return (
    <section aria-labelledby="gathered-heading">
      <h2 id="gathered-heading">Gathered data</h2>
      {entries.length === 0 ? (
        <p class="empty">No data was gathered.</p>
      ) : (
        <dl class="facts">
          {entries.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{textOf(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}

/** The tools the agent called during the run (from the run's log): what was sent and what came back. */
export const ToolCalls = ({ logs }: { readonly logs: Run["logs"] }) => {
  const calls = logs
    .flatMap((line) => (line.tool_call === undefined ? [] : [{ at: line.timestamp, call: line.tool_call }]))
    .map((row, index) => ({ ...row, index }))
  return (
    <section aria-labelledby="tool-calls-heading">
      <h2 id="tool-calls-heading">Tool calls</h2>
      {calls.length === 0 ? (
        <p class="empty">No tool was called.</p>
      ) : (
        <DataTable<{ readonly at: string; readonly call: ToolCall; readonly index: number }>
          caption="Tool calls"
          rows={calls}
          rowKey={(row) => row.index}
          columns={[
            { header: "When", cell: (row) => formatDateTime(row.at) },
            { header: "Tool", cell: (row) => <code>{row.call.tool_uuid}</code> },
            { header: "Outcome", cell: (row) => outcomeOf(row.call) },
            { header: "Arguments", cell: (row) => <span class="wrap">{textOf(row.call.arguments)}</span> },
            {
              header: "Response",
              cell: (row) => (
                <span class="wrap">
                  {row.call.response ?? "—"}
                  {row.call.response_truncated ? " (cut)" : ""}
                </span>
              )
            }
          ]}
        />
      )}
    </section>
  )
}

const outcomeOf = (call: ToolCall): string =>
  [
    call.outcome,
    call.status_code === null ? undefined : `HTTP ${call.status_code}`,
    call.error_type ?? undefined,
    `${call.duration_ms} ms`
  ]
    .filter((part) => part !== undefined)
    .join(" · ")

/** The run's log lines, oldest first. */
export const RunLogs = ({ logs }: { readonly logs: Run["logs"] }) => (
  <section aria-labelledby="logs-heading">
    <h2 id="logs-heading">Logs</h2>
    {logs.length === 0 ? (
      <p class="empty">Nothing was logged.</p>
    ) : (
      <DataTable<LogLine & { readonly index: number }>
        caption="Log lines"
        rows={logs.map((line, index) => ({ ...line, index }))}
        rowKey={(line) => line.index}
        columns={[
          { header: "When", cell: (line) => formatDateTime(line.timestamp) },
          { header: "Level", cell: (line) => line.level },
          { header: "Message", cell: (line) => <span class="wrap">{line.message}</span> }
        ]}
      />
    )}
  </section>
)

/** The text messages sent during the run. */
export const RunSms = ({ sms }: { readonly sms: Run["sms"] }) => (
  <section aria-labelledby="sms-heading">
    <h2 id="sms-heading">SMS</h2>
    {sms.length === 0 ? (
      <p class="empty">No SMS was sent.</p>
    ) : (
      <DataTable<Run["sms"][number] & { readonly index: number }>
        caption="SMS sent"
        rows={sms.map((message, index) => ({ ...message, index }))}
        rowKey={(message) => message.index}
        columns={[
          { header: "Sent", cell: (message) => formatDateTime(message.sent_at) },
          { header: "To", cell: (message) => message.to },
          { header: "Text", cell: (message) => <span class="wrap">{message.text}</span> }
        ]}
      />
    )}
  </section>
)
