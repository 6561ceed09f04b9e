/**
 * Train / dev / test splits, stored with the set: a seeded shuffle of the set's questions cut by ratio,
 * or the value of a field of the imported rows. Each question keeps its split in the database, so a
 * split reads the same on every load; once a run has used one, the set's splits are frozen.
 */
import { DEFAULT_SPLIT_RATIOS, type QuestionSplitSpec } from '../../preload/contract'
import { corpusRepositories, questionColumns, type QuestionRecord, type WorkspaceHandle } from '../corpus/repository'
import { seededRandom } from '../eval/bootstrap'
import { QuestionSetError } from './errors'
import type { QuestionUsage, SplitUseRow } from './usage'

export const SPLIT_NAMES = ['train', 'dev', 'test'] as const

/**
 * The demo world's splits, drawn when it is created: 2:1:1 leaves 23 test and 23 dev (held-out)
 * questions of the 92 a size-1 world has, where 8:1:1 left 9 each and every figure a newcomer saw had
 * a bootstrap CI 30 to 67 points wide.
 */
export const DEMO_SPLIT: QuestionSplitSpec = { method: 'ratio', seed: 1, ratios: { ...DEFAULT_SPLIT_RATIOS } }

/** Splits every demo-world set that has none yet (a fresh one: no run can have used it). */
export function splitNewDemoSets(raw: WorkspaceHandle, usage: QuestionUsage): void {
  const repo = corpusRepositories(raw).questions
  for (const s of repo.sets()) if (s.source === 'demo-world' && !repo.set(s.id)?.splitJson && repo.splitCounts(s.id).length === 0) splitQuestionSet(raw, usage, s.id, DEMO_SPLIT)
}

/** Sizes by largest remainder, so they add up to n exactly. */
export function splitSizes(n: number, ratios: Extract<QuestionSplitSpec, { method: 'ratio' }>['ratios']): Record<(typeof SPLIT_NAMES)[number], number> {
  const total = ratios.train + ratios.dev + ratios.test
  const exact = SPLIT_NAMES.map((s) => (n * ratios[s]) / total)
  const sizes = exact.map(Math.floor)
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i)
  for (let k = 0, left = n - sizes.reduce((a, b) => a + b, 0); left > 0; k++, left--) sizes[order[k % 3]!.i]!++
  return { train: sizes[0]!, dev: sizes[1]!, test: sizes[2]! }
}

/** Each question's split under the spec (null: in none), deterministic in the spec and the questions' ids. */
export function assignSplits(questions: readonly Pick<QuestionRecord, 'id' | 'type' | 'meta_json'>[], spec: QuestionSplitSpec): Map<number, string | null> {
  const out = new Map<number, string | null>()
  if (spec.method === 'field') {
    for (const q of questions) {
      const fields = questionColumns.meta.readNullable(q.meta_json)?.fields ?? {}
      const value = spec.field === 'type' ? (q.type ?? fields.type) : fields[spec.field]
      out.set(q.id, value === undefined || value.trim() === '' ? null : value.trim().slice(0, 64))
    }
    return out
  }
  const ids = questions.map((q) => q.id).sort((a, b) => a - b)
  const rand = seededRandom(spec.seed)
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[ids[i], ids[j]] = [ids[j]!, ids[i]!]
  }
  const sizes = splitSizes(ids.length, spec.ratios)
  let k = 0
  for (const name of SPLIT_NAMES) for (let c = 0; c < sizes[name]; c++) out.set(ids[k++]!, name)
  return out
}

const describeUses = (uses: readonly SplitUseRow[]): string =>
  [...new Map(uses.map((u) => [u.runId, u])).values()].map((u) => `#${u.runId} ${u.name || u.kind} (${uses.filter((x) => x.runId === u.runId).map((x) => x.split).join(', ')})`).join('; ')

/** Refuses when a run has used a split of the set: the message names the runs. */
export function assertSplitsNotUsed(usage: QuestionUsage, setId: number, what: string): void {
  const uses = usage.usedBy(setId)
  if (uses.length > 0) throw new QuestionSetError('conflict', `Cannot ${what}: the splits of question set ${setId} were used by run${uses.length === 1 ? '' : 's'} ${describeUses(uses)}; a split never changes once a run has used it (import or copy the questions into a new set to split them differently)`)
}

/** Draws and stores the set's splits (refused once a run has used them). */
export function splitQuestionSet(raw: WorkspaceHandle, usage: QuestionUsage, setId: number, spec: QuestionSplitSpec): void {
  const repo = corpusRepositories(raw).questions
  if (!repo.set(setId)) throw new QuestionSetError('not-found', `No question set ${setId}`)
  assertSplitsNotUsed(usage, setId, 're-split')
  const questions = repo.all(setId)
  const assignment = assignSplits(questions, spec)
  if (spec.method === 'field' && [...assignment.values()].every((v) => v === null)) {
    throw new QuestionSetError('invalid', `No question of set ${setId} has a value in field "${spec.field}"`)
  }
  repo.storeSplits(setId, JSON.stringify(spec), assignment)
}

/** The split's name checked against the set: an unknown split is an error that lists the set's splits. */
export function checkSplit(raw: WorkspaceHandle, setId: number, split: string): void {
  const counts = corpusRepositories(raw).questions.splitCounts(setId)
  if (!counts.some((c) => c.name === split)) {
    throw new QuestionSetError('invalid', counts.length === 0 ? `Question set ${setId} has no splits yet: split it first (Questions page, or questions split)` : `Question set ${setId} has no split "${split}" (its splits: ${counts.map((c) => `${c.name} ${c.count}`).join(', ')})`)
  }
}
