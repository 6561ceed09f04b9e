import { SUBSTRATE_BOUNDS, SUBSTRATE_DEFAULTS, type ConfigBounds, type SubstrateConfig } from '../sentence-substrate/config'

export type GraphMenuConfig = SubstrateConfig & {
  /** Most LOOKUP items in one menu. */
  maxLookup: number
  /** Question terms (those the committed evidence does not cover yet) added to a LOOKUP query. */
  needTerms: number
  /**
   * 'entity': a LOOKUP ranks only the documents that mention the entity or are named after it (its
   * neighbourhood in the graph); 'corpus': the whole corpus, the entity steering only the query.
   */
  lookupScope: 'entity' | 'corpus'
  /** Entities linked (entity_links) to those of committed sentences become LOOKUP candidates too. */
  linkedEntities: boolean
}

export const GRAPH_MENU_DEFAULTS: GraphMenuConfig = {
  ...SUBSTRATE_DEFAULTS,
  maxLookup: 6,
  needTerms: 6,
  lookupScope: 'entity',
  linkedEntities: true,
}

export const GRAPH_MENU_BOUNDS: ConfigBounds<GraphMenuConfig> = {
  integers: { ...SUBSTRATE_BOUNDS.integers, maxLookup: [0, 100], needTerms: [0, 32] },
  reals: SUBSTRATE_BOUNDS.reals,
  choices: { ...SUBSTRATE_BOUNDS.choices, lookupScope: ['entity', 'corpus'] },
}
