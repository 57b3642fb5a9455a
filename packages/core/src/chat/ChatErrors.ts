import { Schema } from "effect"

/** Messages go to chats only: a call or a browser session takes none (409). */
export class NotAChat extends Schema.TaggedError<NotAChat>()("NotAChat", {
  workflow_run_id: Schema.Number,
  mode: Schema.String
}) {
  override get message() {
    return `not_a_chat: run ${this.workflow_run_id} is a ${this.mode} run; only runs created with mode chat take messages`
  }
}

/** The chat has ended: it takes no more messages and cannot be ended again (409). */
export class ConversationEnded extends Schema.TaggedError<ConversationEnded>()("ConversationEnded", {
  workflow_run_id: Schema.Number,
  status: Schema.String
}) {
  override get message() {
    return `conversation_ended: run ${this.workflow_run_id} has ended (${this.status}); start a new conversation`
  }
}

/** Only a chat that has not started may be sent a message without text, to have the agent open (422). */
export class TextRequired extends Schema.TaggedError<TextRequired>()("TextRequired", {
  workflow_run_id: Schema.Number
}) {
  override get message() {
    return "text is required once the conversation has started (a message without text only opens a new chat)"
  }
}

/** The chat has taken as many user messages as one run may (409). */
export class TurnLimitReached extends Schema.TaggedError<TurnLimitReached>()("TurnLimitReached", {
  workflow_run_id: Schema.Number,
  limit: Schema.Int
}) {
  override get message() {
    return `turn_limit: run ${this.workflow_run_id} has taken ${this.limit} messages, the most one conversation may; end it and start a new one`
  }
}

/** Another message to the chat was still being answered when this one gave up waiting for its turn (409). */
export class TurnBusy extends Schema.TaggedError<TurnBusy>()("TurnBusy", {
  workflow_run_id: Schema.Number,
  waited_ms: Schema.NonNegativeInt
}) {
  override get message() {
    return `turn_busy: another message to run ${this.workflow_run_id} was still being answered after ${this.waited_ms} ms; send this one again`
  }
}
