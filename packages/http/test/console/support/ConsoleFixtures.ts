import { expect } from "@effect/vitest"
import { send } from "../../support/ServerProcesses.js"

/** A call script as a clinic writes it: greeting, steps, objections, data to collect, FAQ. */
export const clinicScript = `# Smile Clinic - check-up reminder
Name: Ada
Goal: Book a free check-up appointment
Direction: outbound

Greeting: "Hi, this is Ada from Smile Clinic. Do you have a minute?"

Steps:
1. Confirm identity: Make sure you are speaking with the patient
2. Remind: It has been a year since the last check-up.
3. Propose a date
4. Close

Objections:
Objection: I'm too busy
Response: It only takes two minutes to book.

Collect: preferred date (date), email

FAQ:
Q: Where are you?
A: Marszałkowska 1, Warsaw.

Q: Do you have parking?
A: Yes, free for patients.
`

/** The API, as a test sets things up beside the browser. */
export const apiOf = (port: number, apiKey: string) => {
  const call = async (method: string, path: string, body?: unknown, status = 200) => {
    const answer = await send(port, method, path, { apiKey }, body)
    expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(status)
    return answer.json
  }
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body: unknown = {}) => call("POST", path, body),
    patch: (path: string, body: unknown) => call("PATCH", path, body),
    /** An agent from a minimal script, with this name (and greeting, and prompt when given). */
    agent: async (name: string, options: { readonly greeting?: string; readonly prompt?: string } = {}) => {
      const created = await call("POST", "/api/v1/agents/from-script", {
        agent: { greeting: options.greeting ?? "Hello, this is Ada from Smile Clinic." },
        agent_name: name
      })
      if (options.prompt === undefined) return created
      return call("PATCH", `/api/v1/agents/${created.public_id}`, { system_prompt: options.prompt })
    }
  }
}
