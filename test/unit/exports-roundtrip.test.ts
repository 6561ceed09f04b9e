/**
 * Round trip of the question key: every dataset export format of a real demo workspace (with split
 * labels on some questions, none on others) is written, and every row is fed to a live environment
 * server through the shipped Python client (resources/trainers/harness_lab_client.py), once by
 * `question_id` and once by `set` + `split` + `index` (through the client's `question_key`, as the
 * trainer glue reads a row). Every row must be served, with the row's own question.
 * Parquet files are read back here (hyparquet) and handed to Python as JSON lines: the Python side is
 * standard library only.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parquetReadObjects } from 'hyparquet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QUESTION_EXPORT_FORMATS } from '../../preload/contract'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { exportFormats, writeExport } from '../../main/exports'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

const TRAINERS = fileURLToPath(new URL('../../resources/trainers', import.meta.url))

const pythonVersion = await new Promise<string | null>((resolve) => execFile('python3', ['--version'], (err, out) => resolve(err ? null : out.trim())))
if (!pythonVersion) console.warn('exports-roundtrip: no python3 on this machine: skipping the export round trip through the Python client')

/** Reads each row's key and asks the server for its question both ways; prints one JSON summary. */
const CLIENT_SCRIPT = String.raw`
import json, sys
from harness_lab_client import HarnessLabClient, HarnessLabError, question_key
c = HarnessLabClient()
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = {"rows": len(rows), "served": 0, "wrong": [], "refused": [], "types": set()}
for r in rows:
    info = r.get("extra_info") or r.get("metadata")
    out["types"].add((type(info["question_id"]).__name__, type(info["set"]).__name__, type(info["split"]).__name__, type(info["index"]).__name__))
    ok = True
    for key in (question_key(info), question_key({k: v for k, v in info.items() if k != "question_id"})):
        try:
            created = c.create("graph-menu", **key)
        except HarnessLabError as e:
            out["refused"].append([key, e.status, e.message]); ok = False; continue
        c.delete(created["episode_id"])
        if created["question"]["id"] != info["question_id"]:
            out["wrong"].append([key, created["question"]["id"]]); ok = False
    out["served"] += ok
out["types"] = sorted(list(t) for t in out["types"])
print(json.dumps(out))
`

function runPython(file: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile('python3', ['-c', CLIENT_SCRIPT, file], { cwd: TRAINERS, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 600_000, maxBuffer: 1 << 24 }, (_err, stdout, stderr) => resolve({ stdout, stderr })),
  )
}

describe.skipIf(!pythonVersion)('every exported dataset row is served by the environment server with its own question', { timeout: 600_000 }, () => {
  let demo: DemoWorkspace
  let server: EnvServer
  let dir: string
  let ids: number[]
  beforeAll(async () => {
    demo = await openDemoWorkspace(4, 0.5)
    const raw = demo.db.raw
    ids = raw.prepare('select id from questions where set_id = 1 order by id').pluck().all() as number[]
    // Labels interleaved, so counting over the whole set and counting within a split give different indices.
    const label = raw.prepare('update questions set split = ? where id = ?')
    ids.forEach((id, i) => label.run(i % 3 === 0 ? 'train' : i % 3 === 1 ? 'dev' : null, id))
    server = await startEnvServer({ raw, appVersion: 'test', port: 0 })
    dir = mkdtempSync(join(tmpdir(), 'harness-lab-roundtrip-'))
  }, 600_000)
  afterAll(async () => {
    await server?.close()
    await demo?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it.each(QUESTION_EXPORT_FORMATS.map((f) => [f]))('%s', async (format) => {
    const target = join(dir, exportFormats[format].folder ? format : `${format}.${exportFormats[format].extension}`)
    const result = await writeExport(demo.db.raw, { source: 'questions', questionSetId: 1, format }, target)
    expect(result.rows).toBe(ids.length)
    let lines: string
    if (exportFormats[format].folder) {
      const files = readdirSync(target).sort()
      expect(files).toEqual(['all.jsonl', 'dev.jsonl', 'train.jsonl'])
      lines = files.map((f) => readFileSync(join(target, f), 'utf8')).join('')
      const train = readFileSync(join(target, 'train.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { metadata: { set: string; split: string; index: number; supporting_facts: unknown[] } })
      expect(train.map((r) => [r.metadata.split, r.metadata.index])).toEqual(train.map((_, i) => ['train', i]))
      // A question in no split counts over the whole set: the third question of the set is its index 2.
      const all = readFileSync(join(target, 'all.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { metadata: { split: string | null; index: number } })
      expect(all.map((r) => [r.metadata.split, r.metadata.index])).toEqual(ids.flatMap((_, i) => (i % 3 === 2 ? [[null, i]] : [])))
      for (const r of train) for (const f of r.metadata.supporting_facts) expect([typeof (f as unknown[])[0], Number.isInteger((f as unknown[])[1])]).toEqual(['string', true])
    } else if (exportFormats[format].extension === 'parquet') {
      const bytes = readFileSync(target)
      const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
      lines = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) + '\n').join('')
    } else lines = readFileSync(target, 'utf8')
    const fed = join(dir, `${format}.rows.jsonl`)
    writeFileSync(fed, lines)
    const r = await runPython(fed, { HARNESS_LAB_URL: server.url, HARNESS_LAB_TOKEN: server.token })
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as { rows: number; served: number; wrong: unknown[]; refused: unknown[]; types: string[][] }
    expect({ wrong: out.wrong, refused: out.refused }).toEqual({ wrong: [], refused: [] })
    expect([out.rows, out.served]).toEqual([ids.length, ids.length])
    // One type per field: split is a label, or null for a question in none.
    expect(out.types).toEqual([['int', 'str', 'NoneType', 'int'], ['int', 'str', 'str', 'int']])
  })

  it.each(QUESTION_EXPORT_FORMATS.map((f) => [f]))('%s of one split: its questions only, keyed as in the whole export, served by the server', async (format) => {
    for (const split of ['train', 'dev']) {
      const target = join(dir, `${format}-${split}${exportFormats[format].folder ? '' : `.${exportFormats[format].extension}`}`)
      const result = await writeExport(demo.db.raw, { source: 'questions', questionSetId: 1, format, split }, target)
      const expected = ids.filter((_, i) => i % 3 === (split === 'train' ? 0 : 1))
      expect(result.rows).toBe(expected.length)
      let lines: string
      if (exportFormats[format].folder) {
        expect(readdirSync(target)).toEqual([`${split}.jsonl`])
        lines = readFileSync(join(target, `${split}.jsonl`), 'utf8')
      } else if (exportFormats[format].extension === 'parquet') {
        const bytes = readFileSync(target)
        const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
        lines = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) + '\n').join('')
      } else lines = readFileSync(target, 'utf8')
      const fed = join(dir, `${format}-${split}.rows.jsonl`)
      writeFileSync(fed, lines)
      const r = await runPython(fed, { HARNESS_LAB_URL: server.url, HARNESS_LAB_TOKEN: server.token })
      expect(r.stderr).toBe('')
      const out = JSON.parse(r.stdout) as { rows: number; served: number; wrong: unknown[]; refused: unknown[] }
      expect({ wrong: out.wrong, refused: out.refused, rows: out.rows, served: out.served }).toEqual({ wrong: [], refused: [], rows: expected.length, served: expected.length })
    }
  })

  it('a set without splits: FlashRAG rows in test.jsonl, which its loader finds', async () => {
    const raw = demo.db.raw
    const saved = raw.prepare('select id, split from questions where set_id = 1').all() as { id: number; split: string | null }[]
    raw.prepare('update questions set split = null where set_id = 1').run()
    try {
      const target = join(dir, 'unsplit-flashrag')
      await writeExport(raw, { source: 'questions', questionSetId: 1, format: 'questions-flashrag-jsonl' }, target)
      expect(readdirSync(target)).toEqual(['test.jsonl'])
    } finally {
      const put = raw.prepare('update questions set split = ? where id = ?')
      for (const s of saved) put.run(s.split, s.id)
    }
  })
})
