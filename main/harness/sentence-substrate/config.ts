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

/**
 * What an environment's options may be, declared beside its defaults: an integer range for every number
 * option and the allowed values of every string option (the compiler asks for each); any other option is
 * a boolean. Upper bounds keep a typo in a config delta from turning one step into a corpus scan.
 */
export type ConfigBounds<C> = {
  integers: { [K in KeysOf<C, number>]: readonly [number, number] }
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
  choices: { searchMode: ['bm25', 'dense', 'hybrid'] },
}

/** Throws with the key and the allowed range when a value is out of its declared bounds or of the wrong type. */
export function checkConfig<C>(name: string, config: Record<string, unknown>, bounds: ConfigBounds<C>): void {
  const integers: Record<string, readonly [number, number]> = bounds.integers
  const choices: Record<string, readonly unknown[]> = bounds.choices
  for (const [key, value] of Object.entries(config)) {
    const range = integers[key]
    if (range) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1]) {
        throw new RangeError(`${name}: ${key} must be an integer from ${range[0]} to ${range[1]}, got ${JSON.stringify(value)}`)
      }
    } else if (choices[key]) {
      const allowed = choices[key]
      if (!allowed.includes(value)) throw new RangeError(`${name}: ${key} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`)
    } else if (typeof value !== 'boolean') {
      throw new RangeError(`${name}: ${key} must be true or false, got ${JSON.stringify(value)}`)
    }
  }
}
