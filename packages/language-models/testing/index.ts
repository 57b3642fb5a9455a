/**
 * Test support: the fake OpenAI-compatible server (a child process speaking the real wire protocol),
 * its script and record shapes, and its deterministic model.
 */
export * as FakeModel from "./FakeModel.js"
export * as FakeOpenAiServer from "./FakeOpenAiServer.js"
export type { AnswerHead, Fragmenting, RecordedRequest, ScriptedAnswer, ScriptedReply } from "./FakeScript.js"
