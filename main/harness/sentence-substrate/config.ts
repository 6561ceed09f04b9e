import type { SearchMode } from '../../retrieval'

/**
 * Options shared by the menu environment and the free-query baseline. The two read the same keys so
 * that "menu vs free query" is one environment name apart under an identical config delta.
 */
export type SubstrateConfig = {
  /** Steps per episode, invalid ones included (the paper's setting is 6). */
  turnLimit: number
  /** Retrieval mode for every query the environment runs. */
  searchMode: SearchMode
  /** Chunks retrieved for the question at reset. */
  initialK: number
  /** Most sentences made visible at reset (the best-matching sentences of those chunks). */
  initialSentences: number
  /** Chunks retrieved per LOOKUP (menu) or search (free query). */
  lookupK: number
  /** Most new sentences one LOOKUP or search makes visible. */
  lookupSentences: number
  /** Most SELECT items in one menu. */
  maxSelect: number
  /** Most ANSWER_WITH items in one menu. */
  maxAnswerWith: number
  /**
   * Entities the question names (found by the corpus's own entity extractor and matched by canonical
   * key) are known from the start, so the question's own subjects can be looked up.
   */
  questionEntities: boolean
}

export const SUBSTRATE_DEFAULTS: SubstrateConfig = {
  turnLimit: 6,
  searchMode: 'bm25',
  initialK: 3,
  initialSentences: 8,
  lookupK: 3,
  lookupSentences: 5,
  maxSelect: 8,
  maxAnswerWith: 3,
  questionEntities: true,
}

type KeysOf<C, T> = { [K in keyof C]-?: C[K] extends T ? K : never }[keyof C]

/** An inclusive range: `[min, max]`. */
export type OptionRange = readonly [min: number, max: number]

/**
 * What an environment's options may be, declared beside its defaults: a range for every number option
 * and the allowed values of every string option (the compiler asks for each); any other option is a
 * boolean. A number option is an integer unless the bounds name it in `Reals` (the second type
 * argument): then its range is under `reals` and any finite value inside it is taken (0.25 as well as 1),
 * while an integer option refuses 1.5. Upper bounds keep a typo in a config delta from turning one step
 * into a corpus scan.
 *
 *   ConfigBounds<MyConfig, 'temperature'> = { integers: { ... }, reals: { temperature: [0, 2] }, choices: { ... } }
 */
export type ConfigBounds<C, Reals extends KeysOf<C, number> = never> = {
  /** A whole-number range for every number option not named in `Reals`. */
  integers: { [K in Exclude<KeysOf<C, number>, Reals>]: OptionRange }
  /** A real range for every number option named in `Reals` (`{}` when there is none). */
  reals: { [K in Reals]: OptionRange }
  choices: { [K in KeysOf<C, string>]: readonly C[K][] }
}

export const SUBSTRATE_BOUNDS: ConfigBounds<SubstrateConfig> = {
  integers: {
    turnLimit: [1, 100],
    initialK: [0, 100],
    initialSentences: [0, 200],
    lookupK: [1, 100],
    lookupSentences: [1, 100],
    maxSelect: [0, 100],
    maxAnswerWith: [0, 100],
  },
  reals: {},
  choices: { searchMode: ['bm25', 'dense', 'hybrid'] },
}

/**
 * Throws with the key and the allowed range when a value is out of its declared bounds or of the wrong
 * type: an integer option takes whole numbers only, a real option any finite number (never NaN or
 * Infinity), each within its inclusive range.
 */
export function checkConfig<C, R extends KeysOf<C, number>>(name: string, config: Record<string, unknown>, bounds: ConfigBounds<C, R>): void {
  const integers: Record<string, OptionRange> = bounds.integers
  const reals: Record<string, OptionRange> = bounds.reals
  const choices: Record<string, readonly unknown[]> = bounds.choices
  const own = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined)
  for (const [key, value] of Object.entries(config)) {
    const integer = own(integers, key)
    const real = own(reals, key)
    const allowed = own(choices, key)
    if (integer) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < integer[0] || value > integer[1]) {
        throw new RangeError(`${name}: ${key} must be an integer from ${integer[0]} to ${integer[1]}, got ${shown(value)}`)
      }
    } else if (real) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < real[0] || value > real[1]) {
        throw new RangeError(`${name}: ${key} must be a number from ${real[0]} to ${real[1]}, got ${shown(value)}`)
      }
    } else if (allowed) {
      if (!allowed.includes(value)) throw new RangeError(`${name}: ${key} must be one of ${allowed.join(', ')}, got ${shown(value)}`)
    } else if (typeof value !== 'boolean') {
      throw new RangeError(`${name}: ${key} must be true or false, got ${shown(value)}`)
    }
  }
}

/** The value as a message shows it: JSON, except the numbers JSON cannot write (NaN, Infinity) by name. */
const shown = (value: unknown): string => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value))
