/**
 * The policy sees chunk ids as "D<chunk id>" (e.g. D12). Chunk ids are stable across episodes and
 * seeds, so a trajectory, a replay and the corpus view all name the same passage the same way, and a
 * document never changes alias when the pool is reordered. Input is lenient: "D12", "d12", "12" and 12
 * all mean chunk 12.
 */
export const docId = (chunkId: number): string => `D${chunkId}`

/** The chunk id behind a policy-supplied id, or null when it is not one. */
export function parseDocId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null
  if (typeof value !== 'string') return null
  const m = /^\s*[dD]?(\d{1,15})\s*$/.exec(value)
  if (!m) return null
  const n = Number(m[1])
  return Number.isSafeInteger(n) && n > 0 ? n : null
}
