/**
 * What a training config can name, as the Rewards page and the training launcher offer it: the reward
 * terms (from their registry, with their warnings), presets, Harness-1's weights with the published
 * defaults, credit schemes, estimators and losses (each with a one-line description and the options it
 * reads), the TrainConfig defaults, and which environments the policy head drives.
 */
import { SavedTrainConfigSchema, type LossParam, type TrainingCatalog } from '../../../preload/contract'
import { environmentCatalog } from '../../harness'
import { HEAD_PROTOCOLS } from '../../policy/head-policy'
import { creditNames } from '../../rl/credit'
import { estimatorNames } from '../../rl/estimators'
import { lossNames } from '../../rl/losses'
import { REWARD_PRESETS, rewardTerms } from '../../rl/reward-schemes'
import { PUBLISHED_HARNESS1_WEIGHTS } from '../../rl/rewards'
import { HARNESS1_WEIGHT_FIELDS, LOSS_PARAMS, TRAINING_METRICS, described } from './descriptions'

/** The environment a new config names: the first one the head drives, graph-menu where registered. */
export function defaultTrainEnvironment(): string {
  const driven = environmentCatalog().filter((e) => (HEAD_PROTOCOLS as readonly string[]).includes(e.protocol))
  return (driven.find((e) => e.name === 'graph-menu') ?? driven[0])?.name ?? 'graph-menu'
}

/** The TrainConfig defaults, minus the splits. */
export const trainConfigDefaults = () => SavedTrainConfigSchema.parse({ environment: defaultTrainEnvironment() })

export function trainingCatalog(): TrainingCatalog {
  const defaults = trainConfigDefaults()
  const lossDefault = (key: LossParam): number | null => defaults.loss[key]
  return {
    rewardTerms: rewardTerms().map((t) => ({ name: t.name, label: t.label, description: t.description, warning: t.warning ?? null, defaultWeight: defaults.reward.weights[t.name] ?? 0 })),
    normalisations: [
      { name: 'official', label: 'Official HotpotQA/2Wiki answer rule' },
      { name: 'graphr1', label: 'Graph-R1/Search-R1 answer rule' },
    ],
    rewardPresets: REWARD_PRESETS.map((p) => ({ name: p.name, label: p.label, reward: p.config })),
    harness1Weights: HARNESS1_WEIGHT_FIELDS.map((f) => ({ ...f, published: PUBLISHED_HARNESS1_WEIGHTS[f.name] })),
    credit: creditNames().map((name) => ({ ...described('credit', name), needsMenu: name !== 'outcome', usesLambda: name !== 'outcome' })),
    estimators: estimatorNames().map((name) => described('estimator', name)),
    losses: lossNames().map((name) => ({
      ...described('loss', name),
      params: (LOSS_PARAMS[name] ?? []).map((p) => ({ ...p, default: lossDefault(p.key) })),
    })),
    defaults,
    environments: environmentCatalog().map((e) => ({
      name: e.name,
      description: e.description,
      family: e.family,
      actionKind: e.actionKind,
      protocol: e.protocol,
      headDriven: (HEAD_PROTOCOLS as readonly string[]).includes(e.protocol),
    })),
    headProtocols: [...HEAD_PROTOCOLS],
    metrics: TRAINING_METRICS(rewardTerms().map((t) => ({ name: t.name, label: t.label }))),
  }
}
