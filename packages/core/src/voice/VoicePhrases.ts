/**
 * What the agent says on its own when the caller stays silent: one reprompt, then a goodbye before the
 * call ends. Spoken in the agent's language (its primary subtag: `pl-PL` → Polish); English for a language
 * not listed here.
 */

export interface Phrases {
  readonly reprompt: string
  readonly goodbye: string
}

const byLanguage: Readonly<Record<string, Phrases>> = {
  en: { reprompt: "Are you still there?", goodbye: "I can't hear you, so I'll end the call now. Goodbye!" },
  pl: {
    reprompt: "Halo, czy nadal mnie słychać?",
    goodbye: "Nic nie słyszę, więc kończę rozmowę. Do widzenia!"
  },
  de: {
    reprompt: "Sind Sie noch da?",
    goodbye: "Ich kann Sie nicht hören, daher beende ich das Gespräch. Auf Wiederhören!"
  },
  es: {
    reprompt: "¿Sigue ahí?",
    goodbye: "No le oigo, así que voy a terminar la llamada. ¡Adiós!"
  },
  fr: {
    reprompt: "Êtes-vous toujours là ?",
    goodbye: "Je ne vous entends pas, je vais donc raccrocher. Au revoir !"
  }
}

/** The phrases for a BCP-47 language tag. */
export const of = (language: string): Phrases =>
  byLanguage[language.trim().toLowerCase().split(/[-_]/)[0] ?? ""] ?? byLanguage.en!
