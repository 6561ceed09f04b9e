/** The harness layer: the environment interface and registry, the one episode loop, and the built-in environments. */
export { createEnvironment, environmentCatalog, environmentFactory, environmentNames, environments, resolvedConfig } from './builtin'
export type { EnvironmentInfo, EnvironmentRegistry } from './registry'
export { EpisodeRun, runEpisode, type EpisodeLoopOptions, type StepTiming } from './run-episode'
export type { Trajectory, TrajectoryStep } from './trajectory'
export type { Policy, PolicyDecision } from './policy'
export type { Answerer } from './answerer'
export { parseMenuReply, type MenuReply } from './sentence-substrate/menu-reply'
export * from './types'
export { FREE_QUERY_SYSTEM_PROMPT, MENU_SYSTEM_PROMPT, MENU_TOOL, observationFor, POLICY_STYLES, PROTOCOLS, promptParams, protocolDeclaration, SEARCH_TOOL, systemPrompt, TOOLS_SYSTEM_PROMPT, type HarnessProtocol, type PolicyStyle, type PromptParams, type Protocol, type SystemPromptOptions } from './protocols'
export { describeTools, typeSignature } from './tool-signature'
// What the layers above read of the environments' protocols. Nothing outside main/harness imports
// past this file (test/unit/import-rules.test.ts checks it).
export { contentTerms, normalisedText, queryKey, stemSet, type Term, type SentenceEnvData, type SentenceRef, type SentenceView } from './sentence-substrate'
export { capQuery, toolCallForMenuId } from './free-query'
export {
  CuratedSet,
  IMPORTANCE_TAGS,
  MAX_FAN_OUT_QUERIES,
  MAX_REVIEW_DOCS,
  MAX_VERIFY_DOCS,
  STATEFUL_DEFAULTS,
  parseDocId,
  type ImportanceTag,
  type StatefulObservationData,
} from './stateful'
/** Harness-1's own term folding (its search history and verification), distinct from the sentence substrate's. */
export { contentTerms as harness1ContentTerms } from './stateful/text'
