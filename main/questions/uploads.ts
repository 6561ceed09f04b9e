/**
 * Question files staged for the questions.import job: the route writes the text it was sent to
 * `<dataDir>/uploads/questions/<uuid>` and the job reads it there, so a client never names a path the
 * backend opens and a 64 MiB text never travels in a job's stored parameters. The job removes its
 * file when it ends, the route again when it returns. Files a killed process left (SIGTERM or kill -9
 * mid-import) are removed by the next import: at once when no other process works in the data
 * folder, else once they are a day old (a queued import never waits that long).
 */
import { randomUUID } from 'node:crypto'
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const STALE_MS = 24 * 60 * 60 * 1000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Uploads this process staged and has not removed yet: never debris. */
const inFlight = new Set<string>()

const uploadDir = (dataDir: string): string => join(dataDir, 'uploads', 'questions')

/** The staged file of an upload id; anything but a UUID is refused (no path can be smuggled in). */
export function uploadPath(dataDir: string, upload: string): string {
  if (!UUID.test(upload)) throw new Error(`not an upload id: ${JSON.stringify(upload.slice(0, 60))}`)
  return join(uploadDir(dataDir), upload)
}

/** Writes `text` as a new upload (readable by this user only) and returns its id. */
export async function stageUpload(dataDir: string, text: string): Promise<string> {
  await mkdir(uploadDir(dataDir), { recursive: true, mode: 0o700 })
  const upload = randomUUID()
  inFlight.add(upload)
  try {
    await writeFile(uploadPath(dataDir, upload), text, { encoding: 'utf8', mode: 0o600, flag: 'wx' })
  } catch (err) {
    inFlight.delete(upload)
    throw err
  }
  return upload
}

export async function removeUpload(dataDir: string, upload: string): Promise<void> {
  await rm(uploadPath(dataDir, upload), { force: true })
  inFlight.delete(upload)
}

/**
 * Removes uploads a killed process left: every one this process is not using when `othersAlive` is
 * false (no other process works in the data folder), else those older than a day. How many went.
 */
export async function sweepStaleUploads(dataDir: string, othersAlive: boolean, now = Date.now()): Promise<number> {
  let names: string[]
  try {
    names = await readdir(uploadDir(dataDir))
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    if (!UUID.test(name) || inFlight.has(name)) continue
    const file = join(uploadDir(dataDir), name)
    const info = await stat(file).catch(() => undefined)
    if (info && (!othersAlive || now - info.mtimeMs > STALE_MS)) {
      await rm(file, { force: true })
      removed++
    }
  }
  return removed
}
