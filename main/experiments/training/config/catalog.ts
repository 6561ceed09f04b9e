/**
 * What a training config can name, as the Rewards page and the training launcher offer it: the reward
 * terms (from their registry, with their warnings), presets, Harness-1's weights with the published
 * defaults, credit schemes, estimators and losses (from their declarations: words, capabilities, and the
 * options a loss reads with their declared bounds), the TrainConfig defaults, and which environments the policy head drives.
 */
import { numberBounds, SavedTrainConfigSchema, type LossParam, type SavedTrainConfig, type TrainingCatalog } from '../../../../preload/contract'
import { environmentCatalog } from '../../../harness'
import { HEAD_PROTOCOLS } from '../../../policy/head-policy'
import { creditSchemes } from '../../../rl/credit'
import { estimators } from '../../../rl/estimators'
import { losses } from '../../../rl/losses'
import { REWARD_PRESETS, rewardTerms } from '../../../rl/reward-schemes'
import { PUBLISHED_HARNESS1_WEIGHTS } from '../../../rl/rewards'
import { HARNESS1_WEIGHT_FIELDS, TRAINING_METRICS } from './descriptions'
import { defaultWarmStartFor, trainingDefaultsFor } from './resolve-config'

const words = (d: { name: string; label: string; description: string }) => ({ name: d.name, label: d.label, description: d.description })

/** The environment a new config names: the first one the head drives, in the registry's order (graph-menu first). */
export function defaultTrainEnvironment(): string {
  const driven = environmentCatalog().filter((e) => HEAD_PROTOCOLS.includes(e.protocol))
  const first = driven[0] ?? environmentCatalog()[0]
  if (!first) throw new Error('No environment is registered')
  return first.name
}

/** The TrainConfig defaults of a run on `environment` (the first one the head drives unless named), minus the splits: its protocol's credit and estimator. */
export function trainConfigDefaults(environment = defaultTrainEnvironment()): SavedTrainConfig {
  const d = trainingDefaultsFor(environment)
  return SavedTrainConfigSchema.parse({ environment, credit: { scheme: d.credit, lambda: d.lambda }, estimator: d.estimator })
}

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
    credit: creditSchemes.declarations().map((d) => ({ ...words(d), needsPreviews: d.capabilities.needsPreviews, usesLambda: d.capabilities.usesLambda })),
    estimators: estimators.declarations().map(words),
    losses: losses.declarations().map((d) => ({
      ...words(d),
      params: d.params.map((p) => {
        const b = numberBounds(p.schema)
        return { key: p.key, label: p.label, description: p.description, nullable: b.nullable, min: b.min, minExclusive: b.minExclusive, max: b.max, default: lossDefault(p.key) }
      }),
    })),
    defaults,
    environments: environmentCatalog().map((e) => ({
      name: e.name,
      description: e.description,
      family: e.family,
      actionKind: e.actionKind,
      protocol: e.protocol,
      headDriven: HEAD_PROTOCOLS.includes(e.protocol),
      warmStart: HEAD_PROTOCOLS.includes(e.protocol) ? defaultWarmStartFor(e.name) : null,
    })),
    headProtocols: [...HEAD_PROTOCOLS],
    metrics: TRAINING_METRICS(),
  }
}
