import type { ParsedSource, SourceDocument } from '../types'
import { writeArticles } from './articles'
import { writeQuestions } from './questions/plan'
import { Rng } from './rng'
import { buildWorld } from './world'
import type { EntityKind } from './writers/shared'

/**
 * The Demo World: an invented encyclopedia (countries, cities, rivers, organisations, people, awards,
 * works) with multi-hop questions whose gold answers and supporting sentences come from the same facts
 * the articles were written from. It is the app's built-in corpus, the test fixture and, through
 * `size`, the scaling fixture. Pure and deterministic: the same seed and size give byte-identical output.
 */

export interface DemoWorldOptions {
  /** Any safe integer. */
  seed: number
  /** Scale factor: every entity count grows linearly with it; 1 gives about ninety articles. */
  size: number
}

export interface DemoWorldStats {
  seed: number
  size: number
  articles: number
  sentences: number
  /** Whitespace-separated tokens over all article texts. */
  words: number
  characters: number
  entities: Record<EntityKind, number>
  questions: number
  bridgeQuestions: number
  comparisonQuestions: number
  yesNoQuestions: number
  /** Questions dropped because a supporting sentence did not state the expected fact; zero unless there is a bug. */
  inconsistentQuestions: number
}

export type DemoWorld = ParsedSource & { stats: DemoWorldStats }

/**
 * Version of the generated content. Output for a given seed and size changes only when this changes, so
 * caches and ingest hashes keyed on (version, seed, size) stay valid; bump it with any change to the text
 * or the questions (the unit test's fingerprint fails until you do).
 */
export const DEMO_WORLD_VERSION = 1

/** Where the documents say they came from, for traceability in the corpus views. */
export const DEMO_WORLD_SOURCE_PATH = 'demo-world'

export function generateDemoWorld(options: DemoWorldOptions): DemoWorld {
  const { seed, size } = options
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`)
  if (!Number.isFinite(size) || size <= 0) throw new RangeError(`size must be a positive number, got ${size}`)

  const root = new Rng(seed, 'demo-world')
  const world = buildWorld(root.fork('world'), size)
  const articles = writeArticles(world, root.fork('articles'))

  const entities: Record<EntityKind, number> = { country: 0, city: 0, river: 0, organisation: 0, person: 0, award: 0, work: 0 }
  let sentences = 0
  let words = 0
  let characters = 0
  const documents: SourceDocument[] = articles.map((a, record) => {
    const text = a.draft.sentences.join(' ')
    entities[a.kind]++
    sentences += a.draft.sentences.length
    words += text.split(/\s+/).length
    characters += text.length
    return {
      externalId: a.entityId,
      title: a.title,
      text,
      sentences: a.draft.sentences.slice(),
      source: { path: DEMO_WORLD_SOURCE_PATH, record },
      metadata: { kind: a.kind, generator: 'demo-world', seed, size },
    }
  })

  const { questions, inconsistent } = writeQuestions(world, articles, root.fork('questions'), articles.length, `demo-${seed}-${size}`)
  const yesNo = questions.filter((q) => q.metadata?.yesNo === true).length
  const bridge = questions.filter((q) => q.type === 'bridge').length
  return {
    documents,
    questions,
    stats: {
      seed,
      size,
      articles: documents.length,
      sentences,
      words,
      characters,
      entities,
      questions: questions.length,
      bridgeQuestions: bridge,
      comparisonQuestions: questions.length - bridge,
      yesNoQuestions: yesNo,
      inconsistentQuestions: inconsistent,
    },
  }
}
