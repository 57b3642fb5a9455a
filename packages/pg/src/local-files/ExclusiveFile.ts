import * as crypto from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"

const isCode = (error: unknown, ...codes: ReadonlyArray<string>) =>
  codes.includes((error as NodeJS.ErrnoException).code ?? "")

/** Writes and syncs `content` to a file that must not exist yet. */
const writeNew = async (file: string, content: string, mode: number) => {
  const handle = await fs.open(file, "wx", mode)
  try {
    await handle.writeFile(content, "utf8")
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Syncs a directory, so that a name created in it survives a power loss (where the system allows it). */
const syncDirectory = async (directory: string) => {
  const handle = await fs.open(directory, "r").catch(() => undefined)
  await handle?.sync().catch(() => undefined)
  await handle?.close()
}

/**
 * Creates `file` with `content` only if it does not exist, atomically: the content is written and synced
 * to a private temporary file first, which is then hard-linked to its name. Nobody ever sees the file
 * empty or half-written, and of two processes creating it at once exactly one succeeds. Answers false when
 * the file already exists. On a file system without hard links (some network and FUSE mounts) the file is
 * created exclusively and then written: still exactly one creator, but a reader may briefly find it empty.
 */
export const create = async (file: string, content: string, mode = 0o600): Promise<boolean> => {
  const directory = path.dirname(file)
  await fs.mkdir(directory, { recursive: true })
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`
  try {
    await writeNew(temporary, content, mode)
    await fs.link(temporary, file)
  } catch (error) {
    if (isCode(error, "EEXIST")) return false
    if (!isCode(error, "EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV")) throw error
    try {
      await writeNew(file, content, mode)
    } catch (fallbackError) {
      if (isCode(fallbackError, "EEXIST")) return false
      throw fallbackError
    }
  } finally {
    await fs.rm(temporary, { force: true })
  }
  await syncDirectory(directory)
  return true
}

/** The file's text, or undefined when it does not exist. */
export const read = (file: string): Promise<string | undefined> =>
  fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined
    throw error
  })
