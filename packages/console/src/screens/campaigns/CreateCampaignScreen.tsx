import { useState } from "preact/hooks"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { navigate } from "../../routing/Location.js"
import { api } from "../../session/Session.js"
import { formatCount } from "../../text/Formats.js"
import { campaignPath } from "./CampaignPaths.js"
import { concurrencyFrom, type RetryOutcome, retryFrom, retryOutcomes } from "./CampaignRules.js"

/** What the form offers: the active agents, the organization's active numbers and its outbound channels. */
const choices = async (signal: AbortSignal) => {
  const [agents, numbers, organization] = await Promise.all([
    api.get("/api/v1/agents", { query: { limit: 100, status: "active" }, signal }),
    api.get("/api/v1/phone-numbers", { query: { limit: 100 }, signal }),
    api.get("/api/v1/organization", { signal })
  ])
  return {
    agents: agents.items,
    numbers: numbers.items.filter((number) => number.status === "active"),
    channels: organization.outbound_channels
  }
}

const outcomeLabels: Readonly<Record<RetryOutcome, string>> = {
  busy: "Busy",
  no_answer: "No answer",
  failed: "Failed"
}

/**
 * A new campaign: its name, the agent that calls, the number it calls from, how many calls at once and
 * how it retries; created in status `created`, its contacts added on its page.
 */
export const CreateCampaignScreen = () => {
  const options = useLoad(choices, [])
  const [name, setName] = useState("")
  const [agentId, setAgentId] = useState("")
  const [numberId, setNumberId] = useState("")
  const [concurrency, setConcurrency] = useState("")
  const [attempts, setAttempts] = useState("1")
  const [delayMinutes, setDelayMinutes] = useState("60")
  const [retryOn, setRetryOn] = useState<ReadonlyArray<RetryOutcome>>(retryOutcomes)
  const action = useAction()
  const [problem, setProblem] = useState<string | undefined>(undefined)

  const create = (event: Event, defaultAgent: string) => {
    event.preventDefault()
    setProblem(undefined)
    if (name.trim() === "") return setProblem("Give the campaign a name.")
    const agent = agentId === "" ? defaultAgent : agentId
    if (agent === "") return setProblem("Choose the agent that calls.")
    const most = concurrencyFrom(concurrency)
    if ("error" in most) return setProblem(most.error)
    const retry = retryFrom({ attempts, delayMinutes, on: retryOn })
    if ("error" in retry) return setProblem(retry.error)
    return action.run(async () => {
      const created = await api.post("/api/v1/campaigns", {
        body: {
          name: name.trim(),
          agent_id: agent,
          ...(numberId === "" ? {} : { from_phone_number_id: Number(numberId) }),
          ...(most.value === undefined ? {} : { max_concurrency: most.value }),
          retry: { ...retry.policy, retry_on: [...retry.policy.retry_on] }
        }
      })
      navigate(campaignPath(created.campaign_id))
    })
  }

  const toggle = (outcome: RetryOutcome, on: boolean) =>
    setRetryOn(retryOutcomes.filter((one) => (one === outcome ? on : retryOn.includes(one))))

  return (
    <>
      <PageHeading title="Create a campaign" />
      <Loaded load={options}>
        {({ agents, numbers, channels }) =>
          agents.length === 0 ? (
            <p class="empty">
              A campaign needs an agent to call: <Link to="agents/new">create an agent</Link> first.
            </p>
          ) : (
            <form class="stacked" onSubmit={(event) => create(event, agents[0]!.public_id)}>
              <label for="campaign-name">Name</label>
              <input
                id="campaign-name"
                value={name}
                onInput={(event) => setName(event.currentTarget.value)}
              />
              <label for="campaign-agent">Agent</label>
              <select
                id="campaign-agent"
                value={agentId}
                onChange={(event) => setAgentId(event.currentTarget.value)}
              >
                {agents.map((agent) => (
                  <option key={agent.public_id} value={agent.public_id}>
                    {agent.name}
                  </option>
                ))}
              </select>
              <label for="campaign-number">Caller number</label>
              <select
                id="campaign-number"
                value={numberId}
                aria-describedby="campaign-number-hint"
                onChange={(event) => setNumberId(event.currentTarget.value)}
              >
                <option value="">The organization's default</option>
                {numbers.map((number) => (
                  <option key={number.id} value={String(number.id)}>
                    {number.number} ({number.number_type})
                  </option>
                ))}
              </select>
              <p id="campaign-number-hint" class="hint">
                The number the contacts see. <Link to="phone-numbers">Phone numbers</Link> lists and orders
                them.
              </p>
              <label for="campaign-concurrency">Most calls at once (optional)</label>
              <input
                id="campaign-concurrency"
                class="short"
                inputMode="numeric"
                value={concurrency}
                aria-describedby="campaign-concurrency-hint"
                onInput={(event) => setConcurrency(event.currentTarget.value)}
              />
              <p id="campaign-concurrency-hint" class="hint">
                Left empty: as many as the organization's outbound channels ({formatCount(channels)}).
              </p>
              <fieldset class="retry-fields">
                <legend>Retries</legend>
                <label for="campaign-attempts">Attempts per contact</label>
                <input
                  id="campaign-attempts"
                  class="short"
                  inputMode="numeric"
                  value={attempts}
                  onInput={(event) => setAttempts(event.currentTarget.value)}
                />
                <label for="campaign-delay">Minutes between attempts</label>
                <input
                  id="campaign-delay"
                  class="short"
                  inputMode="numeric"
                  value={delayMinutes}
                  onInput={(event) => setDelayMinutes(event.currentTarget.value)}
                />
                <fieldset class="checks">
                  <legend>Retry when the call was</legend>
                  {retryOutcomes.map((outcome) => (
                    <label key={outcome} class="check">
                      <input
                        type="checkbox"
                        checked={retryOn.includes(outcome)}
                        onChange={(event) => toggle(outcome, event.currentTarget.checked)}
                      />
                      {outcomeLabels[outcome]}
                    </label>
                  ))}
                </fieldset>
              </fieldset>
              {problem === undefined ? null : <ErrorNotice error={problem} />}
              {action.error === undefined ? null : <ErrorNotice error={action.error} />}
              <div class="actions">
                <button type="submit" disabled={action.busy}>
                  {action.busy ? "Creating…" : "Create the campaign"}
                </button>
              </div>
            </form>
          )
        }
      </Loaded>
    </>
  )
}
