/**
 * Search-R1's reward on Harness Lab's Search-R1 export of a set from no benchmark: Search-R1's own
 * `_select_rm_score_fn` refuses any data_source outside its seven benchmarks, so the export's `harness-lab/<set>`
 * rows need resources/trainers/search-r1/harness_lab_search_r1.py (its README says where it replaces that function).
 * The rows are the real Parquet export read back; test/python/contract_search_r1.py scores each as Search-R1's
 * RewardManager calls a scorer (decoded prompt + response, format_score): right 1, wrong 0, no answer 0 (the
 * prompt's own `<answer>` example never counts), and an unknown data_source is refused by name.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parquetReadObjects } from 'hyparquet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeExport } from '../../main/exports'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

const PY = fileURLToPath(new URL('../python', import.meta.url))
const PYTHON = process.env.HARNESS_LAB_PYTHON || 'python3'
const pythonVersion = await new Promise<string | null>((resolve) => execFile(PYTHON, ['--version'], (err, out) => resolve(err ? null : out.trim())))
if (!pythonVersion) console.warn('search-r1-reward: no python3 on this machine: skipping the Search-R1 reward test')

describe.skipIf(!pythonVersion)("Search-R1's reward on exported rows of a set from no benchmark", () => {
  let demo: DemoWorkspace
  let dir: string
  beforeAll(async () => {
    demo = await openDemoWorkspace(5, 0.3)
    dir = mkdtempSync(join(tmpdir(), 'harness-lab-search-r1-'))
  }, 300_000)
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
    await demo?.close()
  })

  it('scores every harness-lab/<set> row with Search-R1 exact match; other names are refused by name', async () => {
    const file = join(dir, 'rows.parquet')
    await writeExport(demo.db.raw, { source: 'questions', questionSetId: 1, format: 'questions-searchr1-parquet' }, file)
    const bytes = readFileSync(file)
    const rows = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as Record<string, any>[]
    expect(rows.length).toBeGreaterThan(0)
    writeFileSync(join(dir, 'rows.json'), JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)))
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(PYTHON, ['contract_search_r1.py', join(dir, 'rows.json')], { cwd: PY, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    )
    expect(run.code, run.stderr).toBe(0)
    const out = JSON.parse(run.stdout) as { rows: { data_source: string; right: number; wrong: number; missing: number }[]; refused: string | null }
    expect(out.rows).toHaveLength(rows.length)
    for (const r of out.rows) {
      expect(r.data_source).toMatch(/^harness-lab\//)
      expect([r.right, r.wrong, r.missing]).toEqual([1, 0, 0])
    }
    expect(out.refused).toMatch(/'my-own-set'.*harness-lab\/<set>/)
  })
})
