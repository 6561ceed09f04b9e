/**
 * The sentence substrate Harness-G's menu environment and its free-query baseline share: the corpus
 * view (sentences with titles, entities, mentions), what becomes visible and how, episode state with
 * provenance, menu items for sentences, rendering, and the options both read.
 */
export { SUBSTRATE_BOUNDS, SUBSTRATE_DEFAULTS, checkConfig, type ConfigBounds, type OptionRange, type SubstrateConfig } from './config'
export { SentenceEnvironment, type Resolved, type SentenceEnvData, type SentenceEnvSnapshot, type SentenceView, type EntityView } from './sentence-environment'
export type { Episode, HistoryEntry, KnownEntity, ProvenanceEdge, VisibleSentence, EndReason } from './episode'
export { clip, type BuiltItems, type SentenceRef } from './sentence-items'
export type { RankedSentence } from './surfacing'
export { contentTerms, normalisedText, queryKey, stemSet, type Term } from './terms'
export { renderMenu, renderState } from './render'
export { parseMenuReply, type MenuReply } from './menu-reply'
