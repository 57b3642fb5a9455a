import type { Chats } from "@voice-agent-platform/core"
import type {
  ChatMessagesResponse,
  ChatReplyResponse
} from "@voice-agent-platform/contract/chats/ChatsApi.js"

/** A chat's reply as the API shows it. */
export const replyResponse = (reply: Chats.ChatReply): typeof ChatReplyResponse.Type => ({
  workflow_run_id: reply.run.workflow_run_id,
  status: reply.run.status,
  reply: reply.reply,
  tool_calls: reply.tool_calls,
  ended: reply.ended,
  end_reason: reply.end_reason
})

/** A chat's conversation as the API shows it. */
export const messagesResponse = (transcript: Chats.ChatTranscript): typeof ChatMessagesResponse.Type => ({
  workflow_run_id: transcript.run.workflow_run_id,
  status: transcript.run.status,
  messages: transcript.messages
})
