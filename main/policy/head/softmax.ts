/**
 * Softmax helpers over a variable-size set of action logits. Everything is computed in log space
 * with the maximum subtracted first, so large logits or low temperatures cannot overflow.
 */

export type Vector = ArrayLike<number>

export const assertTemperature = (temperature: number): void => {
  if (!(Number.isFinite(temperature) && temperature > 0)) throw new RangeError(`temperature must be a positive finite number, got ${temperature}`)
}

/** log softmax(values / temperature). Throws on an empty set: a policy needs at least one action. */
export const logSoftmax = (values: Vector, temperature = 1): Float64Array => {
  assertTemperature(temperature)
  const n = values.length
  if (n === 0) throw new RangeError('cannot take the softmax of an empty action set')
  const out = new Float64Array(n)
  let max = -Infinity
  for (let i = 0; i < n; i++) {
    const a = values[i]! / temperature
    out[i] = a
    if (a > max) max = a
  }
  let sum = 0
  for (let i = 0; i < n; i++) sum += Math.exp(out[i]! - max)
  const lse = max + Math.log(sum)
  for (let i = 0; i < n; i++) out[i] = out[i]! - lse
  return out
}

export const softmax = (values: Vector, temperature = 1): Float64Array => logSoftmax(values, temperature).map(Math.exp)

/**
 * Shannon entropy in nats from log-probabilities: -sum p log p. A probability that underflowed to 0
 * contributes 0 (its log-probability is finite, so 0 * finite = 0; -Infinity is skipped explicitly).
 */
export const entropy = (logp: Vector): number => {
  let h = 0
  for (let i = 0; i < logp.length; i++) {
    const l = logp[i]!
    if (l === -Infinity) continue
    h -= Math.exp(l) * l
  }
  return h
}

/**
 * Inverse-CDF sampling with a caller-supplied uniform draw u in [0, 1), so the caller owns the random
 * stream (and a replay with the same draws picks the same actions). When rounding leaves the
 * cumulative sum just below u, the last action with non-zero probability is returned.
 */
export const sampleIndex = (probs: Vector, u: number): number => {
  if (!(u >= 0 && u < 1)) throw new RangeError(`u must lie in [0, 1), got ${u}`)
  const n = probs.length
  if (n === 0) throw new RangeError('cannot sample from an empty action set')
  let cumulative = 0
  let lastPositive = -1
  for (let i = 0; i < n; i++) {
    const p = probs[i]!
    if (p > 0) lastPositive = i
    cumulative += p
    if (u < cumulative) return i
  }
  if (lastPositive < 0) throw new RangeError('cannot sample: every probability is zero')
  return lastPositive
}

/** Index of the largest value; ties go to the lowest index so greedy decoding is deterministic. */
export const argmax = (values: Vector): number => {
  const n = values.length
  if (n === 0) throw new RangeError('argmax of an empty set')
  let best = 0
  for (let i = 1; i < n; i++) if (values[i]! > values[best]!) best = i
  return best
}
