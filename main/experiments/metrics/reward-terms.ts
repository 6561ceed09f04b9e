import { HARNESS1_TERMS, type Harness1TermName } from '../../rl/rewards'
import { declareMetric, METRIC_GROUPS, type MetricDeclaration } from './declaration'

/**
 * `reward.<term>`: each Harness-1 reward term's weighted value (signed; penalties are negative), as the
 * reward scheme stores it. Keyed by the term's name, so the compiler asks for one entry per term of
 * HARNESS1_TERMS (main/rl/rewards) and the two cannot drift apart.
 */
const TERMS: Record<Harness1TermName, [label: string, description: string]> = {
  curatedFBeta: ['F-beta of the curated set', 'Weight × F-beta (beta = 2 by default) of curated precision and curated recall.'],
  trajectoryRecall: ['Trajectory recall', 'Weight × share of the gold covered by anything the agent saw.'],
  answerFound: ['Answer found', 'Weight × 1 when the curated set covers at least one answer-bearing gold unit.'],
  answerRecall: ['Answer recall', 'Weight × share of the answer-bearing gold covered by the curated set.'],
  trajectoryAnswerRecall: ['Trajectory answer recall', 'Weight × share of the answer-bearing gold covered by anything seen.'],
  answerGap: ['Answer gap (penalty)', 'Minus weight × max(0, trajectory answer recall − answer recall): the answer was seen but not curated.'],
  turnPenalty: ['Turn penalty', 'Minus the turn penalty: 0 up to the start turn, rising linearly to its maximum at the end turn.'],
  toolDiversity: ['Tool diversity', 'w_div × min(U / target, 1), U = distinct tools used in valid calls other than end_search.'],
  toolShortfall: ['Tool shortfall (penalty)', 'Minus weight × max(0, target − U): too few distinct tools.'],
}

export const harness1RewardTermMetrics: readonly MetricDeclaration[] = HARNESS1_TERMS.map((term) =>
  declareMetric(`reward.${term}`, `Reward term: ${TERMS[term][0]}`, TERMS[term][1], { group: METRIC_GROUPS.reward, level: 'episode', format: 'number' }, { storedBy: 'the Harness-1 reward scheme (experiments/rewards.ts)' }),
)
