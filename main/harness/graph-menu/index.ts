/**
 * Harness-G menu environment ("graph-menu") and the substrate it shares with the free-query baseline.
 *
 * Menu ids, stable within an episode: S<n> SELECT sentence #n, L<m> LOOKUP entity #m, W<n>
 * ANSWER_WITH sentence #n, A ANSWER. Sentences are numbered in the order they become visible and
 * entities in the order they become known, so an id from an earlier menu that is no longer offered
 * (a committed sentence, a visited entity) is rejected as a format error.
 *
 * Observation.data is a SentenceEnvData; snapshot() a SentenceEnvSnapshot; preview() of an item
 * gives the sentence ids it would commit (S, W) or make visible (L). Config: GraphMenuConfig.
 */
import type { EnvironmentFactory } from '../types'
import { checkConfig, GRAPH_MENU_DEFAULTS, type GraphMenuConfig } from './config'
import { GraphMenuEnvironment } from './environment'

export { GraphMenuEnvironment } from './environment'
export { GRAPH_MENU_DEFAULTS, SUBSTRATE_DEFAULTS, checkConfig, type GraphMenuConfig, type SubstrateConfig } from './config'
export { SentenceEnvironment, type SentenceEnvData, type SentenceEnvSnapshot, type SentenceView, type EntityView } from './sentence-environment'
export type { HistoryEntry, KnownEntity, ProvenanceEdge, VisibleSentence, EndReason } from './episode'
export type { SentenceRef } from './sentence-items'
export { lookupQuery } from './lookup-items'

export const GRAPH_MENU = 'graph-menu'

export const graphMenuFactory: EnvironmentFactory<GraphMenuConfig> = {
  name: GRAPH_MENU,
  description:
    'Harness-G menu environment: SELECT a visible sentence, LOOKUP an entity (the environment writes the query), ANSWER_WITH a sentence, or ANSWER; bounded menus with previews.',
  defaults: GRAPH_MENU_DEFAULTS,
  create(ctx, config) {
    checkConfig(GRAPH_MENU, config)
    return new GraphMenuEnvironment(ctx, { ...GRAPH_MENU_DEFAULTS, ...config })
  },
}
