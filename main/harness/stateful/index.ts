/** Harness-1: the stateful environment, its transcript baseline, and their parts. */
export { statefulFactory, transcriptFactory, STATEFUL_ENVIRONMENT, TRANSCRIPT_ENVIRONMENT } from './register'
export { StatefulEnvironment, type StatefulContext, type StatefulHooks } from './environment'
export {
  ALL_OFF,
  HARNESS1_ABLATIONS,
  HARNESS1_PRESETS,
  MECHANISMS,
  STATEFUL_DEFAULTS,
  TRANSCRIPT_DEFAULTS,
  TRANSCRIPT_DELTA,
  parseStatefulConfig,
  statefulConfigSchema,
  type Harness1Ablation,
  type Mechanism,
  type StatefulConfig,
} from './config'
export { TOOL_NAMES, MAX_FAN_OUT_QUERIES, MAX_REVIEW_DOCS, MAX_VERIFY_DOCS, toolSchemas, validateToolCall, type ToolCall, type ToolName } from './tools'
export { IMPORTANCE_TAGS, CuratedSet, type CuratedEntry, type CurateOutcome, type ImportanceTag } from './curated-set'
export { docId, parseDocId } from './doc-ids'
export { compressSentences, type Compressed } from './compress'
export { MinHasher, DEFAULT_MINHASH, estimateJaccard, jaccard, shingles, type MinHashOptions } from './minhash'
export { buildEvidenceGraph, type BridgeEntity, type EvidenceGraphView } from './evidence-graph'
export { CL100K_COUNTER, budgetMarker, budgetWarning, truncateToTokens, type BudgetWarning, type TokenCounter } from './budget'
export { renderWorkingMemory, SECTION_NAMES, type RenderView, type RenderResult, type RenderedSection, type SectionName, type LastResultView, type ResultItem } from './render'
export { renderTranscript, type TranscriptEntry } from './transcript'
export { lexicalCheck, LEXICAL_CHECKER_NAME, type ClaimChecker, type ClaimCheckResult, type Verdict, type VerifyPassage } from './verify'
export { parseToolCallText } from './parse'
export { describeStatefulStep } from './describe-step'
export { diffSnapshots, changedSections, type BudgetView, type SnapshotDiff, type StatefulObservationData, type StatefulSnapshot } from './snapshot'
export type { CuratedView, PoolEntry, SearchRecord, VerificationRecord } from './memory'
