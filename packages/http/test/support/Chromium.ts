import { existsSync } from "node:fs"
import puppeteer, { type Browser, type LaunchOptions } from "puppeteer-core"

/**
 * Debian's chromium (`.ci/run` installs it), or undefined. Missing locally, the browser tests are skipped
 * with a warning (`what` names them); in CI they must run, so its absence there is an error.
 */
export const find = (what: string): string | undefined => {
  const path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((candidate) => existsSync(candidate))
  if (path === undefined) {
    if (process.env.CI !== undefined) throw new Error(`CI must run ${what}: chromium is not installed`)
    console.warn(
      `\n!!! chromium is not installed: ${what} ${what.endsWith("s") ? "are" : "is"} SKIPPED !!!\n`
    )
  }
  return path
}

/** The variables of a faked clock (libfaketime), which the browser must not inherit. */
const clockPreload = /^(LD_PRELOAD|FAKETIME.*)$/

/**
 * A headless chromium at `executablePath`, with the flags every browser test uses and `extra`.
 * It gets the test process's environment without a preloaded faked clock: the suite is run at chosen
 * hours under libfaketime (docs/decisions.md, "Tests at any hour"), and chromium's zygote hangs under
 * it. The browser is a client with its own clock, as every user's is.
 */
export const launch = (
  executablePath: string,
  extra: Omit<LaunchOptions, "executablePath" | "env"> = {}
): Promise<Browser> =>
  puppeteer.launch({
    headless: true,
    timeout: 30_000,
    ...extra,
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", ...(extra.args ?? [])],
    env: Object.fromEntries(
      Object.entries(process.env).filter(
        (entry): entry is [string, string] => entry[1] !== undefined && !clockPreload.test(entry[0])
      )
    )
  })
