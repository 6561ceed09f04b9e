import { readdirSync, readlinkSync } from 'node:fs'

/** The files under `folder` this process holds open (Linux: read from /proc/self/fd). */
export function heldOpen(folder: string): string[] {
  const held: string[] = []
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`)
      if (target.startsWith(`${folder}/`)) held.push(target)
    } catch {
      // Closed between the listing and the read.
    }
  }
  return held
}
