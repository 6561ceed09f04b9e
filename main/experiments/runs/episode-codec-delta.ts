/**
 * Structural deltas between two JSON values, exact under JSON.stringify: for values that came from
 * JSON.parse, `JSON.stringify(applyDelta(prev, jsonDelta(prev, next)))` equals `JSON.stringify(next)`,
 * key order included. Deltas are arrays only (never objects keyed by data), so a key such as
 * "__proto__" is just a string in them.
 *
 * A delta is:
 * - 0                              next deep-equals prev;
 * - ['n', value]                   next replaces prev;
 * - ['o', keys | null, changes]    an object: `keys` is next's key order (null: the same as prev's),
 *                                  `changes` is [key, delta][] (a key absent from prev has ['n', v]);
 * - ['a', length, changes]         an array of `length`: changes is [index, delta][], indices at or
 *                                  past prev's length carry ['n', v] (appends);
 * - ['t', suffix]                  a long string that grew by `suffix` (a transcript, a rendered memory).
 */
import { z } from 'zod'
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type Delta = 0 | ['n', Json] | ['o', string[] | null, [string, Delta][]] | ['a', number, [number, Delta][]] | ['t', string]

/** Text that is JSON, as a value: whatever JSON.parse returns is a JSON value, so this needs no schema. */
export function jsonValue(text: string): Json {
  const value: Json = JSON.parse(text)
  return value
}

export const JsonSchema: z.ZodType<Json> = z.lazy(() => z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(JsonSchema), z.record(z.string(), JsonSchema)]))
export const DeltaSchema: z.ZodType<Delta> = z.lazy(() =>
  z.union([
    z.literal(0),
    z.tuple([z.literal('n'), JsonSchema]),
    z.tuple([z.literal('o'), z.array(z.string()).nullable(), z.array(z.tuple([z.string(), DeltaSchema]))]),
    z.tuple([z.literal('a'), z.number(), z.array(z.tuple([z.number(), DeltaSchema]))]),
    z.tuple([z.literal('t'), z.string()]),
  ]),
)

/** Strings shorter than this are replaced whole: an append delta would save nothing. */
const APPEND_MIN = 64

const isObject = (v: Json): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v)

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k)

/** One pass over both values: a subtree with no change anywhere is 0, so equality is never tested twice. */
export function jsonDelta(prev: Json | undefined, next: Json): Delta {
  if (prev === undefined) return ['n', next]
  if (typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) {
    if (prev === next) return 0
    if (typeof prev === 'string' && typeof next === 'string' && prev.length >= APPEND_MIN && next.startsWith(prev)) return ['t', next.slice(prev.length)]
    return ['n', next]
  }
  if (Array.isArray(prev) && Array.isArray(next)) {
    const changes: [number, Delta][] = []
    for (let i = 0; i < next.length; i++) {
      const d = i < prev.length ? jsonDelta(prev[i], next[i]!) : (['n', next[i]!] as Delta)
      if (d !== 0) changes.push([i, d])
    }
    return changes.length === 0 && prev.length === next.length ? 0 : ['a', next.length, changes]
  }
  if (isObject(prev) && isObject(next)) {
    const pk = Object.keys(prev)
    const nk = Object.keys(next)
    const sameKeys = pk.length === nk.length && pk.every((k, i) => k === nk[i])
    const changes: [string, Delta][] = []
    for (const k of nk) {
      const d = hasOwn(prev, k) ? jsonDelta(prev[k], next[k]!) : (['n', next[k]!] as Delta)
      if (d !== 0) changes.push([k, d])
    }
    if (sameKeys && changes.length === 0) return 0
    return ['o', sameKeys ? null : nk, changes]
  }
  return ['n', next]
}

/** Own, enumerable, writable: assignment would run the __proto__ setter instead. */
const put = (o: Record<string, Json>, k: string, v: Json): void => {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
  else o[k] = v
}

export function applyDelta(prev: Json | undefined, delta: Delta): Json {
  if (delta === 0) {
    if (prev === undefined) throw new Error('episode codec: an unchanged value with nothing before it')
    return prev
  }
  if (delta[0] === 'n') return delta[1]
  if (delta[0] === 't') {
    if (typeof prev !== 'string') throw new Error('episode codec: a string append over a non-string')
    return prev + delta[1]
  }
  if (delta[0] === 'o') {
    if (prev === undefined || !isObject(prev)) throw new Error('episode codec: an object delta over a non-object')
    // Keys first, in next's order (assigning to a key later keeps its place), then the changed values.
    const out: Record<string, Json> = {}
    for (const k of delta[1] ?? Object.keys(prev)) put(out, k, prev[k]!)
    for (const [k, d] of delta[2]) put(out, k, applyDelta(hasOwn(prev, k) ? prev[k] : undefined, d))
    return out
  }
  if (prev === undefined || !Array.isArray(prev)) throw new Error('episode codec: an array delta over a non-array')
  const out = prev.slice(0, delta[1])
  for (const [i, d] of delta[2]) out[i] = applyDelta(i < prev.length ? prev[i] : undefined, d)
  if (out.length !== delta[1]) throw new Error('episode codec: an array delta that leaves a gap')
  return out
}
