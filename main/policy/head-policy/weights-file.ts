/**
 * Head weights as a small portable JSON file (README "Head weights file"). The file carries the feature
 * layout it was trained on, by version (a digest of the ordered input names) and by name, so a head is
 * never read against another layout: a build whose features changed refuses the file and says which
 * inputs differ.
 *
 *   { "format": "harness-lab.head-weights", "version": 1,
 *     "protocol": "sentence-menu", "environment": "graph-menu",
 *     "layout": { "version": "layout-1a2b3c4d5e6f", "inputs": ["SELECT", "SELECT×turnsLeft", ...] },
 *     "head": { "format": ..., "version": 1, "head": "mlp", "config": {...}, "params": [...] },
 *     "source": { "trainingRun": 3, "step": 29, "reward": {...} } }
 */
import { createHash } from 'node:crypto'
import type { Protocol } from '../../harness'
import { headCheckpointSchema, restoreHead, type HeadCheckpoint, type PolicyHead } from '../head'
import { layoutNames, type FeatureLayout } from './features'
import { candidateBuilder } from '../protocols'

export const HEAD_WEIGHTS_FORMAT = 'harness-lab.head-weights'

export interface HeadWeightsFile {
  format: typeof HEAD_WEIGHTS_FORMAT
  version: 1
  protocol: Protocol
  environment: string
  layout: { version: string; inputs: string[] }
  head: HeadCheckpoint
  source: Record<string, unknown>
}

/** The layout's version: a short digest of its ordered input names (any added, removed or moved input changes it). */
export function layoutVersion(layout: FeatureLayout): string {
  return `layout-${createHash('sha256').update(layoutNames(layout).join('\n')).digest('hex').slice(0, 12)}`
}

export function headWeightsFile(protocol: Protocol, environment: string, head: HeadCheckpoint, source: Record<string, unknown>): HeadWeightsFile {
  const layout = candidateBuilder(protocol).layout
  return { format: HEAD_WEIGHTS_FORMAT, version: 1, protocol, environment, layout: { version: layoutVersion(layout), inputs: layoutNames(layout) }, head, source }
}

/**
 * Reads a weights file for an environment speaking `protocol`: the format, the protocol and the layout
 * version must match this build's, else a plain error naming what differs.
 */
export function readHeadWeights(text: string, protocol: Protocol, where = 'the head weights file'): { file: HeadWeightsFile; head: PolicyHead } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new Error(`${where} is not JSON: ${err instanceof Error ? err.message : String(err)}`)
  }
  const f = value as Partial<HeadWeightsFile> | null
  if (!f || typeof f !== 'object' || f.format !== HEAD_WEIGHTS_FORMAT) throw new Error(`${where} is not a head weights file (format "${HEAD_WEIGHTS_FORMAT}" expected)`)
  if (f.version !== 1) throw new Error(`${where} has version ${String(f.version)}; this build reads version 1`)
  if (f.protocol !== protocol) throw new Error(`${where} holds a head for ${String(f.protocol)} environments; this environment speaks ${protocol}`)
  const layout = candidateBuilder(protocol).layout
  const here = layoutVersion(layout)
  if (!f.layout || f.layout.version !== here) {
    const theirs = new Set(f.layout?.inputs ?? [])
    const ours = layoutNames(layout)
    const missing = ours.filter((n) => !theirs.has(n))
    const extra = [...theirs].filter((n) => !ours.includes(n))
    throw new Error(
      `${where} was trained on feature layout ${String(f.layout?.version)}, this build uses ${here}: the head cannot read these features` +
        (missing.length || extra.length ? ` (inputs new here: ${missing.slice(0, 5).join(', ') || 'none'}; inputs gone: ${extra.slice(0, 5).join(', ') || 'none'})` : ' (same inputs in another order)'),
    )
  }
  const checkpoint = headCheckpointSchema.safeParse(f.head)
  if (!checkpoint.success) throw new Error(`${where}: its head is malformed (${checkpoint.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`)
  return { file: f as HeadWeightsFile, head: restoreHead(checkpoint.data) }
}
