import { computed, signal } from "@preact/signals"
import * as Client from "../api/Client.js"
import type { UploadOptions } from "../api/Upload.js"
import { apiRoot } from "../Mount.js"

// The organization's API key is kept in this tab's sessionStorage only: no cookie (so no cross-site request
// forgery), gone when the tab closes or the person signs out.
const storageKey = "vap.console.apiKey"

const stored = (): string | undefined => {
  try {
    return window.sessionStorage.getItem(storageKey) ?? undefined
  } catch {
    return undefined
  }
}

/** The key the console is signed in with; undefined when signed out. */
const apiKey = signal<string | undefined>(stored())

/** Whether someone is signed in. */
export const signedIn = computed(() => apiKey.value !== undefined)

/** Why the console signed out by itself (the API refused the key), shown on the sign-in form. */
export const signedOutReason = signal<string | undefined>(undefined)

/** Whether the console is signed in with a key that starts with `prefix` (a key list's `prefix`). */
export const isSignedInWithPrefix = (prefix: string): boolean => apiKey.value?.startsWith(prefix) === true

/** Forgets the key (and says why, when the API refused it). */
export const signOut = (reason?: string): void => {
  try {
    window.sessionStorage.removeItem(storageKey)
  } catch {
    // storage refused: the key is forgotten from memory all the same
  }
  signedOutReason.value = reason
  apiKey.value = undefined
}

/** The API client every screen uses, with the signed-in key; a refused key signs out. */
export const api = Client.make({
  root: apiRoot,
  apiKey: () => apiKey.value,
  onUnauthorized: (message) => {
    if (apiKey.value !== undefined) signOut(`Signed out: ${message}`)
  }
})

/**
 * How an upload (`Upload.make`, in the chunk of the screen that uploads) reaches the API: with the signed-in
 * key, a refused key signing out as with `api`.
 */
export const uploadOptions: UploadOptions = {
  root: apiRoot,
  apiKey: () => apiKey.value,
  onUnauthorized: (message) => {
    if (apiKey.value !== undefined) signOut(`Signed out: ${message}`)
  }
}

/**
 * Signs in with a key once the API accepts it (one small request any key may make); the API's reason
 * when it does not (an `ApiError`).
 */
export const signIn = async (key: string): Promise<void> => {
  const candidate = key.trim()
  await api.get("/api/v1/agents", { query: { limit: 1 }, headers: { "x-api-key": candidate } })
  try {
    window.sessionStorage.setItem(storageKey, candidate)
  } catch {
    // storage refused (a private window's quota): signed in for this page only
  }
  signedOutReason.value = undefined
  apiKey.value = candidate
}
