/**
 * The plan of a findings run on a workspace: the held-out questions (the set's stored test split, else
 * its dev split, else its first questions) and train questions (the stored train split, else the
 * questions after the held-out ones), never overlapping; the budget's sizes and seeds.
 */
import type SQLite from 'better-sqlite3'
import type { FindingsConfig } from '../../../preload/contract'
import { corpusRepositories } from '../../corpus/repository'
import { evidenceLevel } from '../../rl/reward-schemes/gold'
import { splitGoldProfile } from '../questions'
import { BUDGETS } from './budget'
import type { PlanContext } from './claims'

export function planFor(raw: SQLite.Database, config: FindingsConfig): PlanContext {
  if (config.policy === 'gguf' && !config.gguf) throw new Error('The GGUF policy needs its model: give the F32 GGUF file to train (gguf.modelPath; CLI --model <path>)')
  if (config.policy === 'head' && config.gguf) throw new Error('GGUF training options were given with the head policy: choose policy "gguf" to train the model')
  const overrides = Object.entries(config.overrides).filter(([, v]) => v !== undefined)
  const budget = {
    ...BUDGETS[config.budget],
    ...config.overrides,
    departures: [...BUDGETS[config.budget].departures, ...(overrides.length ? [`sizes set for this run: ${overrides.map(([k, v]) => `${k} ${String(v)}`).join(', ')}`] : [])],
  }
  const questions = corpusRepositories(raw).questions
  const total = questions.countFrom(config.questionSetId, 0)
  if (total === 0) throw new Error(`Question set ${config.questionSetId} has no questions: import or generate questions first`)
  const splits = new Map(questions.splitCounts(config.questionSetId).map((s) => [s.name, s.count]))
  const heldOutSplit = ['test', 'dev'].find((s) => (splits.get(s) ?? 0) > 0)
  let plan: Pick<PlanContext, 'heldOut' | 'train'>
  if (heldOutSplit !== undefined && (splits.get('train') ?? 0) > 0) {
    plan = {
      heldOut: { split: heldOutSplit, offset: 0, limit: Math.min(budget.heldOut, splits.get(heldOutSplit)!) },
      train: { split: 'train', offset: 0, limit: Math.min(budget.train, splits.get('train')!) },
    }
  } else {
    // No stored splits: the first questions are held out, the next ones trained on.
    const heldOut = Math.min(budget.heldOut, Math.floor(total / 3))
    if (heldOut < 2) throw new Error(`Question set ${config.questionSetId} has ${total} questions: a findings run needs at least 6 (a third held out)`)
    plan = { heldOut: { offset: 0, limit: heldOut }, train: { offset: heldOut, limit: Math.min(budget.train, total - heldOut) } }
  }
  const level = evidenceLevel(splitGoldProfile(raw, { questionSetId: config.questionSetId, ...plan.heldOut }))
  const seeds = Array.from({ length: config.seeds ?? budget.seeds }, (_, i) => i + 1)
  return { questionSetId: config.questionSetId, ...plan, budget, seeds, answerer: config.answerer, evidenceMetric: level === 'sentence' ? 'sp.f1' : 'paragraph.f1', gguf: config.policy === 'gguf' ? config.gguf! : null }
}
