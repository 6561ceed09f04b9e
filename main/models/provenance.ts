/**
 * `<file>.provenance.json`: where weights trained in the app came from. The training run writes it beside
 * its final GGUF (base file, base SHA-256, run, step, and the file's own SHA-256); the job that registers
 * the file then marks it registered (`registeredAt`). A final file whose sidecar is not marked was trained
 * but never registered (the process died in between), and start-up registers it (registerUnclaimedTrainedModels);
 * a marked one that is not in the registry was removed by the user and stays removed.
 */
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelInfo } from '../../preload/contract'
import { JsonObject, jsonColumn } from '../db/json-column'

export const provenanceFile = (path: string): string => `${path}.provenance.json`

function readSidecar(path: string): Record<string, unknown> | null {
  const sidecar = provenanceFile(path)
  if (!existsSync(sidecar)) return null
  try {
    return jsonColumn(sidecar, JsonObject).read(readFileSync(sidecar, 'utf8'))
  } catch {
    return null
  }
}

/** The provenance of the file whose SHA-256 is `sha256`: read only when the sidecar's hash matches, so a sidecar left beside other weights is never believed. */
export function readProvenance(path: string, sha256: string): ModelInfo['provenance'] {
  const p = readSidecar(path)
  if (!p || p['sha256'] !== sha256 || typeof p['baseModel'] !== 'string' || typeof p['baseSha256'] !== 'string' || typeof p['runId'] !== 'number' || typeof p['step'] !== 'number') return null
  return { baseModel: p['baseModel'], baseSha256: p['baseSha256'], runId: p['runId'], step: p['step'] }
}

/** The SHA-256 the sidecar claims for its file, when it is a trained file's sidecar not yet marked registered. */
export function unclaimedSha256(path: string): string | null {
  const p = readSidecar(path)
  return p && typeof p['sha256'] === 'string' && p['registeredAt'] === undefined ? p['sha256'] : null
}

/** Marks the file registered once (a later removal from the registry then sticks); replaced whole, never half-written. */
export function markRegistered(path: string, at = new Date()): void {
  const p = readSidecar(path)
  if (!p || p['registeredAt'] !== undefined) return
  const tmp = `${provenanceFile(path)}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify({ ...p, registeredAt: at.toISOString() }, null, 2))
  renameSync(tmp, provenanceFile(path))
}

/** Final GGUFs under the trained-models folder (`<dir>/<workspace>/run-<id>/<file>.gguf`) whose sidecars are not marked registered. */
export function unclaimedTrainedFiles(dir: string): string[] {
  const found: string[] = []
  const list = (d: string) => {
    try {
      return readdirSync(d, { withFileTypes: true })
    } catch {
      return []
    }
  }
  for (const workspace of list(dir).filter((e) => e.isDirectory())) {
    for (const run of list(join(dir, workspace.name)).filter((e) => e.isDirectory() && e.name.startsWith('run-'))) {
      const runDir = join(dir, workspace.name, run.name)
      for (const file of list(runDir).filter((e) => e.isFile() && e.name.endsWith('.gguf'))) {
        const path = join(runDir, file.name)
        if (unclaimedSha256(path) !== null) found.push(path)
      }
    }
  }
  return found.sort()
}
