/**
 * Every stored metric by name, built once from its declarations (one file each; a family such as
 * `reward.<term>` is one file over the terms it follows), in display order. A new metric is one file
 * added to this list: the catalogue, scoreEpisode, the tables and the CLI read it from here.
 */
import { namedRegistry } from '../../rl/named-registry'
import { answerEmGraphr1 } from './answer-em-graphr1'
import { answerEmOfficial } from './answer-em-official'
import { answerF1Graphr1 } from './answer-f1-graphr1'
import { answerF1Official } from './answer-f1-official'
import { answererLoglik } from './answerer-loglik'
import type { MetricDeclaration } from './declaration'
import { episodeMs } from './episode-ms'
import { episodeObservationTokens } from './episode-observation-tokens'
import { episodePolicyTokens } from './episode-policy-tokens'
import { evidenceCount } from './evidence-count'
import { formatErrors } from './format-errors'
import { harness1AnswerRecall } from './harness1-answer-recall'
import { harness1CuratedFBeta } from './harness1-curated-fbeta'
import { harness1CuratedRecall } from './harness1-curated-recall'
import { harness1TrajectoryAnswerRecall } from './harness1-trajectory-answer-recall'
import { paragraphAllGold } from './paragraph-all-gold'
import { paragraphF1 } from './paragraph-f1'
import { paragraphPrecision } from './paragraph-precision'
import { paragraphQueryRecall } from './paragraph-query-recall'
import { paragraphRecall } from './paragraph-recall'
import { paragraphTrajectoryRecall } from './paragraph-trajectory-recall'
import { harness1RewardTermMetrics } from './reward-terms'
import { rewardTotal } from './reward-total'
import { spAllGold } from './sp-all-gold'
import { spEm } from './sp-em'
import { spF1 } from './sp-f1'
import { spPrecision } from './sp-precision'
import { spQueryRecall } from './sp-query-recall'
import { spRecall } from './sp-recall'
import { trainReward } from './train-reward'
import { trainRewardTermMetrics } from './train-reward-terms'
import { turns } from './turns'

export const metrics = namedRegistry<MetricDeclaration>('metric', [
  answerEmOfficial,
  answerEmGraphr1,
  answerF1Official,
  answerF1Graphr1,
  spRecall,
  spPrecision,
  spF1,
  spEm,
  spAllGold,
  evidenceCount,
  paragraphRecall,
  paragraphPrecision,
  paragraphF1,
  paragraphAllGold,
  paragraphTrajectoryRecall,
  spQueryRecall,
  paragraphQueryRecall,
  harness1CuratedRecall,
  harness1AnswerRecall,
  harness1TrajectoryAnswerRecall,
  harness1CuratedFBeta,
  rewardTotal,
  ...harness1RewardTermMetrics,
  trainReward,
  ...trainRewardTermMetrics,
  answererLoglik,
  turns,
  formatErrors,
  episodeMs,
  episodeObservationTokens,
  episodePolicyTokens,
])
