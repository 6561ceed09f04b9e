/**
 * A command-line command that works in a workspace counts as opening it, so the Workspaces page's
 * "Last opened" is not "never" for a workspace used only from the CLI (issue 21).
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import type { Workspace } from '../../preload/contract'
import { tempDir } from '../helpers/services'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')

describe('the command line opens the workspaces it works in', () => {
  const tmp = tempDir('harness-lab-opened-')
  afterAll(() => tmp.cleanup())
  const cli = async (...args: string[]) =>
    (await run(tsx, [join(root, 'main', 'cli.ts'), '--data-dir', tmp.dir, ...args], { cwd: root, env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })).stdout

  it('records the time of a command in the workspace as its last opening; creating it alone does not', async () => {
    const created = JSON.parse(await cli('--json', 'workspace', 'create', 'cli only')) as Workspace
    expect(created.openedAt).toBeNull()
    await cli('corpus', 'stats', created.id)
    const [listed] = JSON.parse(await cli('--json', 'workspace', 'list')) as Workspace[]
    expect(listed!.id).toBe(created.id)
    expect(listed!.openedAt).not.toBeNull()
    expect(Date.parse(listed!.openedAt!)).toBeGreaterThanOrEqual(Date.parse(created.createdAt))
  }, 600_000)
})
