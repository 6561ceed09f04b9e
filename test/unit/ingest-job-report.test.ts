/**
 * The ingest job's report: skipped symbolic links are named (in the message and in the result, with
 * where each points), not only counted; and while one large file is read the job's progress moves with
 * the percentage its message shows.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoWorld } from '../../main/corpus/demo-world'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

function prose(mib: number): string {
  const articles = generateDemoWorld({ seed: 2, size: 1 }).documents.map((d) => `${d.title}\n\n${d.text}`)
  const parts: string[] = []
  for (let i = 0, length = 0; length < mib * 1024 * 1024; i++) {
    parts.push(articles[i % articles.length]!)
    length += articles[i % articles.length]!.length + 2
  }
  return parts.join('\n\n')
}

describe('ingest job report', () => {
  const tmp = tempDir('harness-lab-ingest-report-')
  let backend: TestBackend
  let workspaceId: string

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'report' })).id
  })
  afterAll(async () => {
    await backend?.close()
    tmp.cleanup()
  })

  it('names the skipped symbolic links, in the message and in the result', async () => {
    const dir = join(tmp.dir, 'links')
    mkdirSync(dir)
    writeFileSync(join(dir, 'real.txt'), 'Ada Lovelace wrote the notes.')
    symlinkSync(join(dir, 'real.txt'), join(dir, 'twin.txt'))
    symlinkSync(join(tmp.dir, 'nowhere.txt'), join(dir, 'dangling.txt'))
    const job = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'folder', path: dir } } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status).toBe('done')
    expect(done.message).toContain('2 symbolic links skipped (links are never followed): dangling.txt, twin.txt')
    const result = done.result as { skipped?: { label: string; reason: string; error: string }[] }
    expect(result.skipped).toEqual([
      { label: 'dangling.txt', reason: 'symlink', error: expect.stringMatching(/which does not exist: not followed/) },
      { label: 'twin.txt', reason: 'symlink', error: expect.stringMatching(/symbolic link to real\.txt inside the folder/) },
    ])
  }, 600_000)

  it('moves the stored progress while one large file is read, as its message does', async () => {
    const dir = join(tmp.dir, 'large')
    mkdirSync(dir)
    writeFileSync(join(dir, 'long.txt'), prose(1.5))
    const seen: { progress: number; message: string }[] = []
    const off = backend.services.events.subscribe((name, payload) => {
      if (name !== 'job.progress') return
      const p = payload as { progress: number; message: string }
      if (/%$/.test(p.message)) seen.push({ progress: p.progress, message: p.message })
    })
    try {
      const job = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'folder', path: dir } } })
      expect((await backend.services.jobs.waitFor(job.id)).status).toBe('done')
    } finally {
      off()
    }
    // Each update that shows a percentage carries a progress that grows with it.
    expect(seen.length).toBeGreaterThan(1)
    for (const s of seen) expect(s.progress).toBeGreaterThan(0)
    const percents = seen.map((s) => Number(/(\d+)%$/.exec(s.message)![1]))
    expect(percents.at(-1)!).toBeGreaterThan(percents[0]!)
    expect(seen.at(-1)!.progress).toBeGreaterThan(seen[0]!.progress)
  }, 600_000)
})
