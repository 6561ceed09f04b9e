import { SUBSTRATE_BOUNDS, SUBSTRATE_DEFAULTS, type ConfigBounds, type SubstrateConfig } from '../sentence-substrate/config'

/** The menu environment's substrate options (same keys, same meaning) plus the query's own limits. */
export type FreeQueryConfig = SubstrateConfig & {
  /** Longer queries are cut (at a word boundary when one is near) before retrieval. */
  maxQueryChars: number
  /** A query whose terms equal an earlier one's is a recorded format error unless this is true, as a repeated LOOKUP key is blocked in the menu. */
  allowRepeatedQueries: boolean
}

export const FREE_QUERY_DEFAULTS: FreeQueryConfig = {
  ...SUBSTRATE_DEFAULTS,
  maxQueryChars: 200,
  allowRepeatedQueries: false,
}

export const FREE_QUERY_BOUNDS: ConfigBounds<FreeQueryConfig> = {
  integers: { ...SUBSTRATE_BOUNDS.integers, maxQueryChars: [1, 4000] },
  reals: SUBSTRATE_BOUNDS.reals,
  choices: SUBSTRATE_BOUNDS.choices,
}
