/**
 * Large question files: the browser-mode server takes a question file above its general 4 MiB body
 * limit (the contract allows 64 MiB), reads a JSON array of tens of thousands of rows in one pass with
 * each bad row's line, and keeps answering other calls while it does. Every format gives the same rows.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBrowserServer, type BrowserServer } from '../../main/adapters/http-server'
import { createHandlers } from '../../main/api/handlers'
import { readRows } from '../../main/questions'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

const ROWS = 30_000

/** A pretty-printed JSON array (9 lines per row) with one broken element; the broken row's line. */
function bigJsonArray(): { text: string; badLine: number } {
  const items: string[] = []
  for (let i = 0; i < ROWS; i++) items.push(JSON.stringify({ id: `q${i}`, question: `Which river flows through Example ${i}?`, answers: [`River ${i}`], supporting_facts: [[`Example ${i}`, 0]] }, null, 2))
  const bad = 20_000
  items[bad] = '{\n  "id": "broken",\n  "question": oops\n}'
  // Line 1 is "[", each earlier element takes its own lines.
  const badLine = 2 + items.slice(0, bad).reduce((n, item) => n + item.split('\n').length, 0)
  return { text: `[\n${items.join(',\n')}\n]\n`, badLine }
}

describe('large question files', () => {
  const tmp = tempDir()
  let backend: TestBackend
  let server: BrowserServer
  let base: string
  let workspaceId: string

  beforeAll(async () => {
    const rendererDir = join(tmp.dir, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'questions' })).id
    server = await startBrowserServer({ handlers: createHandlers(backend.services, { mode: 'browser' }), events: backend.services.events, rendererDir, port: 0 })
    base = `http://127.0.0.1:${server.port}`
  })
  afterAll(async () => {
    await server?.close()
    await backend?.close()
    tmp.cleanup()
  })

  const call = (route: string, body: unknown) =>
    fetch(`${base}/api/call/${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` }, body: JSON.stringify(body) })

  it('imports a JSON array of 30k rows over 4 MiB in browser mode, names the bad row by line, and answers other calls meanwhile', async () => {
    const { text, badLine } = bigJsonArray()
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 * 1024 * 1024)
    const order: string[] = []
    const importing = call('questions.import', { workspaceId, name: 'big', content: text, fileName: 'big.json' }).then(async (res) => {
      order.push('import')
      return { status: res.status, body: (await res.json()) as { ok: boolean; data: { report: { rows: number; imported: number; badRows: { line: number; reason: string }[] } } } }
    })
    // Asked once the import is under way (its body is sent): answered while the file is still being read.
    const info = await call('app.info', {})
    order.push('info')
    expect(info.status).toBe(200)
    const imported = await importing
    expect(imported.status).toBe(200)
    expect(order).toEqual(['info', 'import'])
    const { report } = imported.body.data
    expect(report).toMatchObject({ rows: ROWS, imported: ROWS - 1 })
    expect(report.badRows).toEqual([expect.objectContaining({ line: badLine, reason: expect.stringMatching(/^invalid JSON/) })])
  }, 600_000)

  it('reads the same rows, with their lines, from a JSON array, {data: [...]}, JSONL and CSV', () => {
    const rows = [
      { id: 'a', question: 'Who?', answer: 'me' },
      { id: 'b', question: 'Where, "exactly"?', answer: 'here' },
    ]
    const array = readRows(`[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]`, 'json').rows
    const wrapped = readRows(`{"version": "1", "note": "[not this]", "data": [\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]}`, 'json').rows
    const jsonl = readRows(`\n${rows.map((r) => JSON.stringify(r)).join('\n')}\n`, 'jsonl').rows
    const csv = readRows('id,question,answer\na,Who?,me\nb,"Where, ""exactly""?",here\n', 'csv').rows
    const expected = rows.map((value, i) => ({ line: i + 2, value }))
    expect(array).toEqual(expected)
    expect(wrapped).toEqual(expected)
    expect(jsonl).toEqual(expected)
    expect(csv).toEqual(expected)
    // A nested array or a string holding brackets and quotes does not end an element early.
    expect(readRows('[{"q": "a ] \\" , [", "n": [1, [2, 3]]}, 7]', 'json').rows).toEqual([
      { line: 1, value: { q: 'a ] " , [', n: [1, [2, 3]] } },
      { line: 1, value: 7 },
    ])
  })
})
