/**
 * Harness-1 configuration. Every mechanism of the stateful harness is a boolean switch (all on by
 * default), so each row of the paper's ablation table is a config delta over one environment;
 * `transcript: true` swaps the working memory for the append-only transcript baseline.
 */
import { z } from 'zod'

export const MECHANISMS = [
  'autoSeed',
  'compression',
  'dedup',
  'importanceTags',
  'evidenceGraph',
  'verification',
  'reviewDocs',
  'budgetMarkers',
] as const
export type Mechanism = (typeof MECHANISMS)[number]

export const statefulConfigSchema = z.strictObject({
  /** After the first search that returns anything new, its top results enter an empty curated set at `fair`. */
  autoSeed: z.boolean(),
  /** Each result is cut to its most query-relevant sentences (original order kept). */
  compression: z.boolean(),
  /** MinHash near-duplicate suppression in the candidate pool. */
  dedup: z.boolean(),
  /** curate() takes an importance tag; tags drive eviction when the curated set is full. */
  importanceTags: z.boolean(),
  /** Bridge entities shared by documents in working memory are rendered. */
  evidenceGraph: z.boolean(),
  /** The verify tool and its records. */
  verification: z.boolean(),
  /** The review_docs tool (re-read stored full text at no corpus cost). */
  reviewDocs: z.boolean(),
  /** `[Context: used/limit]` marker with warnings at 60 / 75 / 90 %. */
  budgetMarkers: z.boolean(),
  /** Append-only transcript baseline: no rendered working memory, raw observations appended. */
  transcript: z.boolean(),

  /** Retrieval mode; 'auto' is hybrid when the retriever has dense vectors, bm25 otherwise. */
  searchMode: z.enum(['bm25', 'dense', 'hybrid', 'auto']),
  /** Results per query (search_corpus and each fan_out_search query). */
  resultsPerQuery: z.number().int().min(1).max(50),
  grepMaxResults: z.number().int().min(1).max(200),
  /**
   * grep_corpus's work budget: characters of passage text one call scans before it stops (and says so).
   * It shapes the episode, so it counts work, never time: the same seed gives the same episode at any load.
   */
  grepScanChars: z.number().int().min(1).max(1_000_000_000),
  /**
   * grep_corpus's wall-clock safety net, far above what the work budget takes: when it fires the step,
   * the episode and the run say so (`wallClockGuard`), since that result depends on machine load.
   */
  grepTimeBudgetMs: z.number().positive().max(600_000),
  /** Turns (valid or not) before the episode ends with 'turn-limit'. */
  maxTurns: z.number().int().min(1).max(500),
  /** Token limit of the rendered context; rendering never exceeds it. */
  contextTokens: z.number().int().min(1).max(2_000_000),
  curatedCap: z.number().int().min(1).max(1000),
  autoSeedCount: z.number().int().min(1).max(100),
  compressionSentences: z.number().int().min(1).max(50),
  dedupThreshold: z.number().min(0).max(1),
  minhashPermutations: z.number().int().min(16).max(1024),
  minhashShingle: z.number().int().min(1).max(10),
  minhashSeed: z.number().int(),
  /** Bridge entities shown. */
  graphTopEntities: z.number().int().min(0).max(100),
  /** Recent search-history entries shown (before degradation). */
  historyTurns: z.number().int().min(0).max(100),
  /** Candidate-pool entries shown (before degradation). */
  poolShown: z.number().int().min(0).max(500),
})

export type StatefulConfig = z.infer<typeof statefulConfigSchema>

export const STATEFUL_DEFAULTS: StatefulConfig = {
  autoSeed: true,
  compression: true,
  dedup: true,
  importanceTags: true,
  evidenceGraph: true,
  verification: true,
  reviewDocs: true,
  budgetMarkers: true,
  transcript: false,
  searchMode: 'bm25',
  resultsPerQuery: 8,
  grepMaxResults: 10,
  // About what the former 250 ms budget scanned on an idle machine (RE2 reads some 20 M characters/s).
  grepScanChars: 5_000_000,
  grepTimeBudgetMs: 30_000,
  maxTurns: 16,
  contextTokens: 8192,
  curatedCap: 30,
  autoSeedCount: 8,
  compressionSentences: 4,
  dedupThreshold: 0.85,
  minhashPermutations: 128,
  minhashShingle: 3,
  minhashSeed: 0x5eed,
  graphTopEntities: 8,
  historyTurns: 5,
  poolShown: 20,
}

/** Every mechanism off (the "all off" row): tools and working memory without any of the aids. */
export const ALL_OFF: Readonly<Record<Mechanism, false>> = Object.freeze(
  Object.fromEntries(MECHANISMS.map((m) => [m, false])) as Record<Mechanism, false>,
)

/** The append-only transcript baseline, as a delta over the stateful defaults. */
export const TRANSCRIPT_DELTA: Readonly<Partial<StatefulConfig>> = Object.freeze({ ...ALL_OFF, transcript: true })

export const TRANSCRIPT_DEFAULTS: StatefulConfig = { ...STATEFUL_DEFAULTS, ...TRANSCRIPT_DELTA }

export interface Harness1Ablation {
  name: string
  label: string
  /** Delta over the "stateful" environment's defaults. */
  delta: Partial<StatefulConfig>
}

const single = (m: Mechanism, name: string, label: string): Harness1Ablation => ({ name, label, delta: { [m]: false } })

/** The rows of the paper's ablation table: full harness, each mechanism off alone, all off, transcript. */
export const HARNESS1_ABLATIONS: readonly Harness1Ablation[] = Object.freeze([
  { name: 'full', label: 'Full harness', delta: {} },
  single('autoSeed', 'no-auto-seed', 'w/o auto-seeding'),
  single('compression', 'no-compression', 'w/o sentence compression'),
  single('dedup', 'no-dedup', 'w/o near-duplicate suppression'),
  single('importanceTags', 'no-importance-tags', 'w/o importance tags'),
  single('evidenceGraph', 'no-evidence-graph', 'w/o evidence graph'),
  single('verification', 'no-verification', 'w/o verification'),
  single('reviewDocs', 'no-review-docs', 'w/o review_docs'),
  single('budgetMarkers', 'no-budget-markers', 'w/o budget markers'),
  { name: 'all-off', label: 'All mechanisms off', delta: { ...ALL_OFF } },
  { name: 'transcript', label: 'Append-only transcript', delta: { ...TRANSCRIPT_DELTA } },
])

/** Named presets (deltas over the "stateful" defaults). */
export const HARNESS1_PRESETS: Readonly<Record<'full' | 'allOff' | 'transcript', Readonly<Partial<StatefulConfig>>>> = Object.freeze({
  full: Object.freeze({}),
  allOff: ALL_OFF,
  transcript: TRANSCRIPT_DELTA,
})

/** Validates a resolved config; throws a readable error naming the bad keys. */
export function parseStatefulConfig(config: Record<string, unknown>): StatefulConfig {
  const parsed = statefulConfigSchema.safeParse(config)
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`).join('; ')
    throw new Error(`Invalid Harness-1 config: ${why}`)
  }
  return parsed.data
}
