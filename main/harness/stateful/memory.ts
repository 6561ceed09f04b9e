/** Records kept in the inner tier besides the curated set and the graph. */
import type { ImportanceTag } from './curated-set'
import type { ToolName } from './tools'
import type { Verdict } from './verify'

/** A retrieved passage in the candidate pool (compressed unless compression is off). */
export interface PoolEntry {
  id: string
  chunkId: number
  documentId: number
  title: string
  summary: string
  /** The query (or grep pattern) that first surfaced it. */
  query: string
  tool: ToolName
  turn: number
  /** 1-based rank in the result that surfaced it. */
  rank: number
}

export interface SearchRecord {
  turn: number
  tool: 'fan_out_search' | 'search_corpus' | 'grep_corpus'
  /** Queries or the grep pattern. */
  queries: string[]
  /** Retrieval mode actually used ('grep' for grep_corpus). */
  mode: string
  /** Hits returned (before dedup). */
  results: number
  /** Hits that entered the pool. */
  new: number
  /** Near-duplicates suppressed. */
  duplicates: number
  /** Ids that entered the pool, in rank order. */
  newIds: string[]
  /** How many of newIds are curated now (filled when rendered). */
  curated: number
}

export interface VerificationRecord {
  turn: number
  claim: string
  docIds: string[]
  verdict: Verdict
  score: number
  /** Who checked: an injected checker's name, or the lexical stand-in. */
  checker: string
  lexical: boolean
  rationale?: string
  evidence: { docId: string; sentence: string }[]
}

export interface CuratedView {
  id: string
  chunkId: number
  title: string
  tag: ImportanceTag | null
  via: 'policy' | 'auto-seed'
  turn: number
  summary: string
}
