// Types of vitest.packages.js (a JavaScript file so that every project's config can import it from
// outside its own TypeScript project).
import type { UserWorkspaceConfig } from "vitest/config"

/** Whether this run loads every package from source (watch mode, or VAP_TEST_SOURCES=1). */
export declare const fromSource: boolean

/** A vitest project of the workspace: `own` is the package it tests (none for an example). */
export declare const workspaceProject: (
  own: string | undefined,
  test: NonNullable<UserWorkspaceConfig["test"]>
) => UserWorkspaceConfig

/** `npm start`'s build when a source changed since the last one (the projects' global setup). */
export declare const setup: () => Promise<void>
