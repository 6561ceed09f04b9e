import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startBackend, tempDir } from '../helpers/services'

describe('workspaces', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it('are created, listed, renamed, opened and survive a restart', async () => {
    let backend = await startBackend(tmp.dir)
    const a = await backend.call('workspace.create', { name: 'Alpha' })
    const b = await backend.call('workspace.create', { name: 'Beta' })
    expect(existsSync(await backend.services.workspaces.databaseFile(a.id))).toBe(true)
    await backend.call('workspace.rename', { id: a.id, name: 'Alpha prime' })
    const opened = await backend.call('workspace.get', { id: b.id })
    expect(opened.openedAt).not.toBeNull()
    await backend.close()

    backend = await startBackend(tmp.dir)
    const list = await backend.call('workspace.list', {})
    expect(list.map((w) => w.name)).toEqual(['Beta', 'Alpha prime'])
    await backend.close()
  })

  it('are deleted only with the exact name, and their folder goes with them', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'Doomed' })
    const folder = dirname(await backend.services.workspaces.databaseFile(w.id))
    await expect(backend.call('workspace.delete', { id: w.id, confirmName: 'doomed' })).rejects.toThrow(/exact name/)
    expect(existsSync(folder)).toBe(true)
    await backend.call('workspace.delete', { id: w.id, confirmName: 'Doomed' })
    expect(existsSync(folder)).toBe(false)
    await expect(backend.call('workspace.get', { id: w.id })).rejects.toThrow(/No workspace/)
    await backend.close()
  })
})
