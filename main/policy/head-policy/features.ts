/**
 * Feature vectors for the trainable head. Every candidate of one decision is encoded into the same fixed
 * layout, so the head's input dimension never depends on the menu: a type one-hot, the item's own features
 * in its type's block, and the state (turns left, last turn, evidence committed) crossed with the type —
 * state features alone would be the same for every candidate and cancel in the softmax.
 */

/** Squashes retrieval scores and counts (BM25 can reach 20+) into a range the head learns on without tuning. */
export const squash = (x: number): number => (Number.isFinite(x) ? Math.sign(x) * Math.log1p(Math.abs(x)) : 0)

export interface StateFeatures {
  /** Turns left as a fraction of the turn limit. */
  turnsLeft: number
  /** 1 on the last turn. */
  lastTurn: number
  /** Evidence committed so far (squashed count). */
  committed: number
  /** 1 once anything is committed. */
  hasCommitted: number
}

export const STATE_FEATURES: readonly (keyof StateFeatures)[] = ['turnsLeft', 'lastTurn', 'committed', 'hasCommitted']

/** A layout: the candidate types and, per type, the names of the item features read into its block. */
export interface FeatureLayout {
  types: readonly string[]
  blocks: Readonly<Record<string, readonly string[]>>
}

export function layoutDimension(layout: FeatureLayout): number {
  let d = layout.types.length * (1 + STATE_FEATURES.length)
  for (const t of layout.types) d += layout.blocks[t]?.length ?? 0
  return d
}

/** Names of every input dimension, in order (for the UI and for checkpoints: a head trained on one layout refuses another). */
export function layoutNames(layout: FeatureLayout): string[] {
  const names: string[] = []
  for (const t of layout.types) {
    names.push(`${t}`)
    for (const s of STATE_FEATURES) names.push(`${t}×${s}`)
  }
  for (const t of layout.types) for (const f of layout.blocks[t] ?? []) names.push(`${t}.${f}`)
  return names
}

/** One candidate's row: zeros except its type's one-hot, its type × state and its own features. */
export function encode(layout: FeatureLayout, type: string, features: Readonly<Record<string, number>>, state: StateFeatures): Float64Array {
  const row = new Float64Array(layoutDimension(layout))
  const ti = layout.types.indexOf(type)
  if (ti < 0) throw new Error(`No feature block for candidate type "${type}"; known: ${layout.types.join(', ')}`)
  const stride = 1 + STATE_FEATURES.length
  row[ti * stride] = 1
  STATE_FEATURES.forEach((s, i) => (row[ti * stride + 1 + i] = state[s]))
  let offset = layout.types.length * stride
  for (const t of layout.types) {
    const names = layout.blocks[t] ?? []
    if (t === type) names.forEach((f, i) => (row[offset + i] = squash(features[f] ?? 0)))
    offset += names.length
  }
  return row
}
