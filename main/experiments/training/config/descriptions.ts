/**
 * The words of the training catalogue that belong to no plug-in: the Harness-1 weights' labels and the
 * metric descriptions of the per-step training diagnostics (a credit scheme, estimator or loss carries
 * its own words in its declaration; an episode metric, its declaration in main/experiments/metrics).
 */
import type { MetricInfo } from '../../../../preload/contract'
import { metricInfo, metrics } from '../../metrics'
import type { Harness1Weights } from '../../../rl/rewards'

type WeightName = keyof Harness1Weights
type WeightField = { name: WeightName; label: string; description: string; integer: boolean; min: number | null }
const w = (label: string, description: string, integer = false, min: number | null = null) => ({ label, description, integer, min })

/**
 * The words of every Harness-1 weight, keyed by its name: the compiler asks for one entry per weight of
 * harness1WeightsSchema (main/rl/rewards), so the Rewards page's list cannot miss one. In the formula's
 * order (the Harness-1 paper's code defaults; README, Training).
 */
const WEIGHT_WORDS: Record<WeightName, Omit<WeightField, 'name'>> = {
  beta: w('β of F-beta', "F-beta's beta for the curated set (recall-weighted when above 1).", false, 0.001),
  curatedFBeta: w('Curated F-beta', '× F-beta of curated precision and curated recall.'),
  trajectoryRecall: w('Trajectory recall', '× share of the gold covered by anything seen.'),
  answerFound: w('Answer found', '× 1 when at least one answer-bearing unit is curated.'),
  answerRecall: w('Answer recall', '× share of the answer-bearing gold that is curated.'),
  trajectoryAnswerRecall: w('Trajectory answer recall', '× share of the answer-bearing gold seen.'),
  answerGap: w('Answer gap (penalty)', 'Subtracted × max(0, trajectory answer recall − answer recall): seen the answer but did not curate it.'),
  turnPenaltyMax: w('Turn penalty max', 'Largest turn penalty, reached at the end turn.'),
  turnPenaltyStart: w('Turn penalty start', 'Turns up to this one cost nothing.', true, 0),
  turnPenaltyEnd: w('Turn penalty end', 'The turn at which the penalty reaches its maximum.', true, 0),
  diversity: w('Tool diversity w_div', '× min(U / target, 1), U = distinct tools used other than end_search.'),
  diversityTarget: w('Diversity target', 'Distinct tools for the full diversity reward.', false, 0.001),
  toolShortfall: w('Tool shortfall (penalty)', 'Subtracted × max(0, shortfall target − U).'),
  shortfallTarget: w('Shortfall target', 'Distinct tools below which the shortfall penalty applies.', false, 0),
  floor: w('Floor', 'R = max(floor, …).'),
  emptyCurated: w('Empty curated set', 'The reward when nothing is curated (replaces the formula).'),
  formatError: w('Format error', 'The reward when the episode has too many format errors (checked first).'),
  formatErrorsAllowed: w('Format errors allowed', 'Format errors tolerated before the format-error reward applies.', true, 0),
}

/** Every Harness-1 weight with its words, in the formula's order. */
export const HARNESS1_WEIGHT_FIELDS: readonly WeightField[] = Object.entries(WEIGHT_WORDS).map(([name, words]) => ({ name: name as WeightName, ...words }))

const TRAINING = 'Training'
const t = (name: string, label: string, description: string, format: MetricInfo['format'], direction: MetricInfo['direction'] = 'none'): MetricInfo => ({
  name,
  label,
  description,
  direction,
  format,
  group: TRAINING,
  level: 'step',
  headline: false,
})

/**
 * Labels and units of the per-step diagnostics (`train.<field>`); the reward, each term's contribution
 * (`train.reward.<term>`) and the held-out metrics a step also carries are the episode metrics' own
 * declarations (a step shows their mean).
 */
export function TRAINING_METRICS(): MetricInfo[] {
  return [
    metricInfo('train.reward'),
    ...metrics.names().filter((name) => name.startsWith('train.reward.')).map(metricInfo),
    t('train.advantageMean', 'Advantage mean', 'Mean outcome advantage over the step’s rollouts.', 'number'),
    t('train.advantageStd', 'Advantage std', 'Standard deviation of the outcome advantages.', 'number'),
    t('train.zeroAdvantageRate', 'Zero-advantage rate', 'Share of groups (≥ 2 rollouts) whose rewards all agree (std < 1e-6): they teach nothing.', 'fraction', 'lower'),
    t('train.allWrongRate', 'Zero advantage: all wrong', "Share of groups that are zero-advantage with every rollout wrong: below half the best the run's own reward allows.", 'fraction', 'lower'),
    t('train.allCorrectRate', 'Zero advantage: all correct', "Share of groups that are zero-advantage with every rollout correct: at least half the best the run's own reward allows (a zero reward is never correct).", 'fraction'),
    t('train.equivalenceClasses', 'N_eq (classes per group)', 'Mean number of retrieval-equivalence classes per group: rollouts with the same accumulated evidence are one class.', 'number'),
    t('train.spanningGroups', 'D_ret (groups spanning > 1 class)', 'Share of groups whose rollouts reached more than one evidence set.', 'fraction'),
    t('train.queryDiversity', 'D_query (query diversity)', 'Mean share of distinct query strings among a group’s searches (free query).', 'fraction'),
    t('train.entropy', 'Entropy', 'Mean policy entropy over the batch’s decisions (nats); GGUF runs: at the trained reply tokens.', 'number'),
    t('train.gradNorm', 'Gradient norm', 'Global gradient norm before clipping (last substep; GGUF runs: of the whole batch’s token-mean loss).', 'number'),
    t('train.loss', 'Loss', 'Policy loss of the last substep; a GGUF warm start: the token-mean cross-entropy of the teacher’s replies.', 'number'),
    t('train.clippedFraction', 'Clipped fraction', 'Share of samples whose importance ratio was clipped.', 'fraction'),
    t('train.klToBase', 'KL to base', 'GGUF runs: mean KL(policy || base) of the next-token distribution at the base model’s held-out decision prompts (a fixed probe), after the step’s update and the KL guard (nats).', 'number', 'lower'),
    t('train.secondsPerUpdate', 'Seconds per update', 'GGUF runs: wall time of the step’s weight update in the native trainer.', 'number', 'lower'),
    t('train.learningRate', 'Learning rate', 'GGUF runs: the step size the update used; the KL guard lowers it for the rest of the run when it halves a step.', 'number'),
    t('train.tokensTrained', 'Tokens trained', 'GGUF runs: chosen-reply tokens in the step’s loss.', 'count'),
    t('train.turns', 'Turns (mean)', 'Mean turns per rollout.', 'count'),
    t('train.evidence', 'Evidence items (mean)', 'Mean committed evidence items per rollout.', 'count'),
    metricInfo('sp.allGold'),
    metricInfo('evidence.count'),
  ]
}
