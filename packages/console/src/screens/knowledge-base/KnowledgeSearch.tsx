import { useEffect, useState } from "preact/hooks"
import { Loaded } from "../../components/Feedback.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { place, setQuery } from "../../routing/Location.js"
import { api } from "../../session/Session.js"
import { documentPath } from "./DocumentFacts.js"

/** How many passages a search shows. */
const resultsShown = 10

/**
 * Searches the organization's ready documents as agents do (`POST /knowledge-base/search`): the chunks
 * most relevant to the words, best first. The words are in the address (`?q=`), so a search can be
 * shared, reloaded and left with the back button.
 */
export const KnowledgeSearch = ({ words }: { readonly words: string }) => {
  const [typed, setTyped] = useState(words)
  // the box follows the address (back and forward): it always shows the words the results are for
  useEffect(() => setTyped(words), [words])
  const results = useLoad(
    (signal) =>
      words === ""
        ? Promise.resolve(undefined)
        : api.post("/api/v1/knowledge-base/search", { body: { query: words, limit: resultsShown }, signal }),
    [words]
  )
  return (
    <section aria-labelledby="search-heading">
      <h2 id="search-heading">Search the documents</h2>
      <form
        role="search"
        class="search-form"
        onSubmit={(event) => {
          event.preventDefault()
          // the documents' list on the same screen keeps its page: only the search changed
          setQuery({ q: typed.trim(), page: place.value.query.get("page") ?? undefined })
        }}
      >
        <label for="knowledge-search">Words to look for</label>
        <div class="search-row">
          <input
            id="knowledge-search"
            type="search"
            value={typed}
            maxLength={1000}
            onInput={(event) => setTyped(event.currentTarget.value)}
          />
          <button type="submit">Search</button>
        </div>
      </form>
      {words === "" ? null : (
        <Loaded load={results} label="Searching…">
          {(answer) =>
            answer === undefined || answer.results.length === 0 ? (
              <p class="empty" role="status">
                Nothing in the ready documents matches {`“${words}”`}.
              </p>
            ) : (
              <ol class="search-results" aria-label={`Passages matching ${words}`}>
                {answer.results.map((result) => (
                  <li key={`${result.document_uuid}-${result.chunk_index}`}>
                    <p class="search-source">
                      <Link to={documentPath(result.document_uuid)}>{result.filename}</Link>, chunk{" "}
                      {result.chunk_index + 1} · relevance {result.score.toFixed(2)}
                    </p>
                    <p class="prose passage">{result.text}</p>
                  </li>
                ))}
              </ol>
            )
          }
        </Loaded>
      )}
    </section>
  )
}
