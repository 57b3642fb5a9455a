import { Schema } from "effect"

/** The modes of a run that is a record only (no call is placed): a browser session or a chat. */
export const ConversationMode = Schema.Literal("webrtc", "smallwebrtc", "chat")
export type ConversationMode = typeof ConversationMode.Type
