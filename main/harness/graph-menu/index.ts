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
