/** The client's retry policy lives in `@voice-agent-platform/contract`; this path stays for embedders. */
export * from "@voice-agent-platform/contract/client/ClientRetry.js"
