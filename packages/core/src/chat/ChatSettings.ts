import { Context, Layer } from "effect"

/** How long a chat may go without a message before it ends by itself (`CHAT_IDLE_SECONDS`). */
export const defaultIdleSeconds = 600

/** The bounds `CHAT_IDLE_SECONDS` may take: a minute to a week. */
export const minIdleSeconds = 60
export const maxIdleSeconds = 7 * 24 * 60 * 60

export interface ChatSetting {
  readonly idleSeconds: number
}

/** Chats' settings: configuration with defaults, like `CallRates`. */
export class ChatSettings extends Context.Reference<ChatSettings>()(
  "@voice-agent-platform/core/ChatSettings",
  {
    defaultValue: (): ChatSetting => ({ idleSeconds: defaultIdleSeconds })
  }
) {}

/** Whether a number of seconds is an idle limit the settings take. */
export const isValidIdleSeconds = (seconds: number): boolean =>
  Number.isInteger(seconds) && seconds >= minIdleSeconds && seconds <= maxIdleSeconds

export const layer = (setting: ChatSetting): Layer.Layer<ChatSettings> => Layer.succeed(ChatSettings, setting)
