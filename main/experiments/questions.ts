import { createHash } from 'node:crypto'
import type SQLite from 'better-sqlite3'
import type { QuestionRangeInput } from '../../preload/contract'
import { resolveGoldAll, type ResolvedGold } from '../corpus/gold'
import { corpusRepositories, questionGold } from '../corpus/repository'
import type { EnvQuestion } from '../harness'
import { checkSplit } from '../questions/splits'
import { goldProfile, type GoldProfile } from '../rl/reward-schemes'

export interface StoredQuestion extends EnvQuestion {
  rowId: number
  /** Resolved when loaded (always present on a stored question). */
  gold: ResolvedGold
}

/**
 * A range of a stored question set, or of one of its stored splits (train / dev / test), in a stable
 * order (by id), each question with its gold resolved against the workspace once (`gold`: documents
 * and sentences by id, unresolved gold listed), for scoring, rewards and the oracle to share. An
 * unknown split is an error naming the set's splits.
 */
export function loadQuestions(raw: SQLite.Database, { questionSetId, split, offset = 0, limit }: QuestionRangeInput): StoredQuestion[] {
  if (split !== undefined) checkSplit(raw, questionSetId, split)
  const rows = corpusRepositories(raw).questions.splitPage(questionSetId, split ?? null, offset, limit)
  const questions = rows.map((r) => ({
    rowId: r.id,
    id: String(r.id),
    question: r.question,
    ...questionGold(r),
  }))
  const gold = resolveGoldAll(raw, questions)
  return questions.map((q, i) => ({ ...q, gold: gold[i]! }))
}

/** Identifies the corpus an evaluation ran on: files with their content hashes and the chunking settings. */
export function corpusSignature(raw: SQLite.Database): string {
  const { sources } = corpusRepositories(raw)
  const files = sources.okFileHashes()
  const chunking = sources.meta('chunking') ?? ''
  const digest = createHash('sha256').update(`${chunking}\n${files.join('\n')}`).digest('hex')
  return `${files.length}files-sha256:${digest.slice(0, 16)}`
}

/** The gold a range of a stored question set carries (the levels every question has), read without resolving it. */
export function splitGoldProfile(raw: SQLite.Database, { questionSetId, split, offset = 0, limit }: QuestionRangeInput): GoldProfile {
  const rows = corpusRepositories(raw).questions.splitPage(questionSetId, split ?? null, offset, limit)
  return goldProfile(rows.map(questionGold))
}

/** "the train split of question set 3 (split train)", for messages. */
export const describeRange = (label: string, { questionSetId, split }: Pick<QuestionRangeInput, 'questionSetId' | 'split'>): string => `the ${label} split of question set ${questionSetId}${split !== undefined ? ` (stored split "${split}")` : ''}`
