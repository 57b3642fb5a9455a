/** The typed client lives in `@voice-agent-platform/contract/client`; this path stays for embedders. */
export * from "@voice-agent-platform/contract/client/Client.js"
