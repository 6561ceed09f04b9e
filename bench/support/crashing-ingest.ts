/** A folder ingest in a child process that is SIGKILLed mid-way: the crash the resume tests and bench:ingest-hostile recover from. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Ingests `folder` into `dbFile` in a child process and SIGKILLs it once it announced its `killAfter`-th file write; the writes it announced. */
export async function crashingIngest(dbFile: string, folder: string, killAfter: number): Promise<{ writes: number; finished: boolean }> {
  const url = (p: string) => JSON.stringify(pathToFileURL(join(ROOT, p)).href)
  const code = `
    const { openDatabase } = await import(${url('main/db/open.ts')})
    const { workspaceMigrations } = await import(${url('main/db/migrations.ts')})
    const { runIngest, defaultIngestOptions } = await import(${url('main/ingest/run.ts')})
    const db = await openDatabase(${JSON.stringify(dbFile)}, workspaceMigrations)
    let writes = 0
    await runIngest(db.raw, { kind: 'folder', path: ${JSON.stringify(folder)} }, defaultIngestOptions(), {
      progress: (_p, stage) => { if (stage === 'write') process.stdout.write('write ' + ++writes + '\\n') },
      throwIfCancelled: () => undefined,
    })
    process.stdout.write('finished\\n')`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  let writes = 0
  let finished = false
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) {
      if (line.startsWith('write ')) writes = Number(line.slice(6))
      if (line === 'finished') finished = true
      if (writes >= killAfter && child.exitCode === null) child.kill('SIGKILL')
    }
  })
  await once(child, 'exit')
  return { writes, finished }
}
