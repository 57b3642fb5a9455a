import * as crypto from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"

/**
 * Creates `file` with `content` only if it does not exist, atomically: the content is written and synced
 * to a private temporary file first, which is then hard-linked to its name. Nobody ever sees the file
 * empty or half-written, and of two processes creating it at once exactly one succeeds. Answers false when
 * the file already exists.
 */
export const create = async (file: string, content: string, mode = 0o600): Promise<boolean> => {
  await fs.mkdir(path.dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`
  const handle = await fs.open(temporary, "wx", mode)
  try {
    await handle.writeFile(content, "utf8")
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await fs.link(temporary, file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false
    throw error
  } finally {
    await fs.rm(temporary, { force: true })
  }
}

/** The file's text, or undefined when it does not exist. */
export const read = (file: string): Promise<string | undefined> =>
  fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined
    throw error
  })
