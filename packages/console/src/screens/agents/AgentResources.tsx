import type { Schema } from "../../api/Client.js"
import { ApiError } from "../../api/ApiErrors.js"
import { Loaded } from "../../components/Feedback.js"
import { useLoad } from "../../data/useLoad.js"
import { api } from "../../session/Session.js"

type Agent = Schema<"Agent">

/** A record read by id, or the note that it is gone (deleted since the agent named it). */
const orGone = async <T,>(read: Promise<T>): Promise<T | "gone"> => {
  try {
    return await read
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return "gone"
    throw error
  }
}

/** The agent's tools (by name), transfer numbers and knowledge documents (by file name). */
export const AgentResources = ({ agent }: { readonly agent: Agent }) => {
  const definition = agent.workflow_definition
  const toolIds = definition.tools.flatMap((tool) => (tool.type === "tool" ? [tool.tool_uuid] : []))
  const bookings = definition.tools.flatMap((tool) =>
    tool.type === "booking" ? [tool.scheduler_connection_id] : []
  )
  const documentIds = definition.knowledge_base_document_ids ?? []
  const tools = useLoad(
    (signal) =>
      Promise.all(
        toolIds.map(async (id) => ({
          id,
          tool: await orGone(api.get("/api/v1/tools/{tool_uuid}", { path: { tool_uuid: id }, signal }))
        }))
      ),
    [agent.current_definition_id]
  )
  const documents = useLoad(
    (signal) =>
      Promise.all(
        documentIds.map(async (id) => ({
          id,
          document: await orGone(
            api.get("/api/v1/knowledge-base/documents/{document_id}", {
              path: { document_id: String(id) },
              signal
            })
          )
        }))
      ),
    [agent.current_definition_id]
  )
  const transferNumbers = definition.transfer_numbers ?? agent.workflow_configurations.transfer_numbers
  return (
    <>
      <section aria-labelledby="tools-heading">
        <h2 id="tools-heading">Tools</h2>
        {toolIds.length === 0 && bookings.length === 0 ? (
          <p class="empty">The agent has no tools.</p>
        ) : (
          <Loaded load={tools} label="Loading the tools…">
            {(items) => (
              <ul>
                {items.map(({ id, tool }) => (
                  <li key={id}>
                    {tool === "gone" ? (
                      <span class="muted">A deleted tool ({id})</span>
                    ) : (
                      <>
                        {tool.name}{" "}
                        <span class="muted">
                          ({tool.definition.type.replace(/_/g, " ")}
                          {tool.status === "archived" ? ", archived" : ""})
                        </span>
                      </>
                    )}
                  </li>
                ))}
                {bookings.map((connection) => (
                  <li key={connection}>
                    Booking <span class="muted">(connection {connection})</span>
                  </li>
                ))}
              </ul>
            )}
          </Loaded>
        )}
      </section>
      <section aria-labelledby="transfer-heading">
        <h2 id="transfer-heading">Transfer numbers</h2>
        {transferNumbers.length === 0 ? (
          <p class="empty">No transfer numbers.</p>
        ) : (
          <ul>
            {transferNumbers.map((number) => (
              <li key={number}>{number}</li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">Knowledge documents</h2>
        {documentIds.length === 0 ? (
          <p class="empty">The agent answers from no knowledge documents.</p>
        ) : (
          <Loaded load={documents} label="Loading the documents…">
            {(items) => (
              <ul>
                {items.map(({ id, document }) => (
                  <li key={id}>
                    {document === "gone" ? (
                      <span class="muted">A deleted document ({id})</span>
                    ) : (
                      <>
                        {document.filename}{" "}
                        <span class="muted">({document.processing_status.replace(/_/g, " ")})</span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Loaded>
        )}
      </section>
    </>
  )
}
