/**
 * `graph export <workspace> --out FILE` run as its own process (`tsx main/cli.ts`, as `npm run cli` does)
 * over a real data folder holding the demo world: the GraphML file where the user named it, and clear
 * refusals for a missing folder and a wrong extension.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/services'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')

describe('graph export command line', () => {
  const tmp = tempDir('harness-lab-gcli-')
  let workspaceId: string
  const cli = async (...args: string[]) => (await run(tsx, [join(root, 'main', 'cli.ts'), '--data-dir', tmp.dir, ...args], { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })).stdout

  beforeAll(async () => {
    await cli('corpus', 'demo', 'gcli', '--size', '0.3')
    workspaceId = (JSON.parse(await cli('--json', 'workspace', 'list')) as { id: string }[])[0]!.id
  }, 600_000)
  afterAll(() => tmp.cleanup())

  it('writes the GraphML file named by --out, outside the data folder too, and refuses a missing folder or another extension', async () => {
    const out = join(tmp.dir, 'graph.graphml')
    const r = JSON.parse(await cli('--json', 'graph', 'export', workspaceId, '--out', out)) as { file: string; nodes: number; edges: number; bytes: number }
    expect(r.file).toBe(out)
    expect(r.nodes).toBeGreaterThan(0)
    expect(r.edges).toBeGreaterThan(0)
    const xml = readFileSync(out, 'utf8')
    expect(xml.startsWith('<?xml')).toBe(true)
    expect(xml.match(/<node /g)).toHaveLength(r.nodes)
    expect(xml.match(/<edge /g)).toHaveLength(r.edges)
    await expect(cli('graph', 'export', workspaceId, '--out', join(tmp.dir, 'missing', 'g.graphml'))).rejects.toThrow(/folder .*missing does not exist/)
    await expect(cli('graph', 'export', workspaceId, '--out', join(tmp.dir, 'g.xml'))).rejects.toThrow(/must end in \.graphml/)
    expect(existsSync(join(tmp.dir, 'g.xml'))).toBe(false)
  }, 600_000)
})
