import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { sweepPartials } from '../exports'
import { ownerFiles, ownerStatus } from '../jobs/owner-lock'
import type { WorkspaceService } from '../workspaces/service'

/**
 * At start-up, removes the `<file>.partial` files that exports killed mid-way (kill -9, a crash, a power
 * cut) left in the workspaces' exports folders. Every process that can export into a data folder holds
 * an owner lock on it, so when no other owner is alive no export can be running there and every
 * `.partial` is debris; while another process lives, its exports are left alone (the next lone start
 * sweeps). A file exported elsewhere is cleaned by its next export (FileSink). The names removed.
 */
export async function sweepStaleExports(dataDir: string, workspaces: WorkspaceService): Promise<string[]> {
  if (otherLiveOwner(dataDir)) return []
  const removed: string[] = []
  for (const ws of await workspaces.list()) {
    const folder = join(dirname(await workspaces.databaseFile(ws.id)), 'exports')
    removed.push(...sweepPartials(folder).map((name) => join(folder, name)))
  }
  return removed
}

/** Whether another live process holds an owner lock on the data folder (and may have work in flight there). */
export function otherLiveOwner(dataDir: string): boolean {
  let names: string[]
  try {
    names = readdirSync(ownerFiles(dataDir, process.pid).dir)
  } catch {
    return false
  }
  return names.some((name) => {
    const m = /^(\d+)\.json$/.exec(name)
    return m !== null && Number(m[1]) !== process.pid && ownerStatus(dataDir, Number(m[1])).alive
  })
}
