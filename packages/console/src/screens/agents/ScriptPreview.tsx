import type { Schema } from "../../api/Client.js"

type Preview = Schema<"CallScriptPreview">
type Field = Preview["agent"]["data_fields"][number]
type Step = Preview["agent"]["conversation_structure"][number]

const fieldOf = (field: Field) => (typeof field === "string" ? { name: field } : field)
const stepOf = (step: Step) => (typeof step === "string" ? { title: step } : step)

/** What the analysis read from a call script: greeting, goal, steps, data fields, FAQ, objections. */
export const ScriptPreview = ({ preview }: { readonly preview: Preview }) => {
  const { agent } = preview
  const fields = [...agent.data_fields, ...agent.custom_data_fields].map(fieldOf)
  return (
    <div class="script-preview">
      <h3>Greeting</h3>
      <p class="prose">{agent.greeting}</p>
      {agent.agent_goal === "" ? null : (
        <>
          <h3>Goal</h3>
          <p class="prose">{agent.agent_goal}</p>
        </>
      )}
      <h3>Steps</h3>
      {agent.conversation_structure.length === 0 ? (
        <p class="empty">No steps were found.</p>
      ) : (
        <ol>
          {agent.conversation_structure.map(stepOf).map((step, index) => (
            <li key={index}>
              <span class="strong">{step.title}</span>
              {step.description === undefined || step.description === "" ? null : <> — {step.description}</>}
            </li>
          ))}
        </ol>
      )}
      <h3>Data fields</h3>
      {fields.length === 0 ? (
        <p class="empty">No data fields were found.</p>
      ) : (
        <ul>
          {fields.map((field, index) => (
            <li key={index}>
              <code>{field.name}</code>
              {field.type === undefined ? null : <span class="muted"> ({field.type})</span>}
              {field.description === undefined || field.description === "" ? null : (
                <> — {field.description}</>
              )}
            </li>
          ))}
        </ul>
      )}
      <h3>Questions and answers</h3>
      {preview.faq.length === 0 ? (
        <p class="empty">No questions were found.</p>
      ) : (
        <dl class="faq">
          {preview.faq.map((entry, index) => (
            <div key={index}>
              <dt>{entry.question}</dt>
              <dd>{entry.answer}</dd>
            </div>
          ))}
        </dl>
      )}
      {agent.objections.length === 0 ? null : (
        <>
          <h3>Objections</h3>
          <dl class="faq">
            {agent.objections.map((entry, index) => (
              <div key={index}>
                <dt>{entry.objection}</dt>
                <dd>{entry.response}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </div>
  )
}
