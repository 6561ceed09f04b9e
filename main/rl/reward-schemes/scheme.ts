import type { z } from 'zod'
import { RewardConfigSchema } from '../../../preload/contract/training'
import { rewardTerm, rewardTermNames } from './terms'

export const rewardConfigSchema = RewardConfigSchema
export type RewardConfig = z.infer<typeof rewardConfigSchema>

export interface RewardPreset {
  name: string
  label: string
  config: RewardConfig
}

/** Presets, including Harness-1's published reward and the evidence F1 Harness-G trains on. */
export const REWARD_PRESETS: readonly RewardPreset[] = [
  { name: 'sp-f1-all-gold', label: 'Supporting-fact F1 + all-gold bonus (the default)', config: { weights: { 'sp.f1': 1, 'sp.allGold': 1 }, normalisation: 'official', harness1Weights: {} } },
  { name: 'sp-f1', label: 'Supporting-fact F1 (Harness-G)', config: { weights: { 'sp.f1': 1 }, normalisation: 'official', harness1Weights: {} } },
  { name: 'answer-f1', label: 'Answer F1', config: { weights: { 'answer.f1': 1 }, normalisation: 'official', harness1Weights: {} } },
  { name: 'harness1-published', label: 'Harness-1 published reward', config: { weights: { harness1: 1 }, normalisation: 'official', harness1Weights: {} } },
  { name: 'harness1-no-diversity', label: 'Harness-1 without the tool-diversity reward', config: { weights: { harness1: 1 }, normalisation: 'official', harness1Weights: { diversity: 0, toolShortfall: 0 } } },
  { name: 'sp-recall', label: 'Supporting-fact recall (see its warning)', config: { weights: { 'sp.recall': 1 }, normalisation: 'official', harness1Weights: {} } },
]

export function rewardPreset(name: string): RewardPreset {
  const p = REWARD_PRESETS.find((x) => x.name === name)
  if (!p) throw new Error(`Unknown reward preset "${name}"; known: ${REWARD_PRESETS.map((x) => x.name).join(', ')}`)
  return p
}

/** Throws naming any unknown term. */
export function checkRewardConfig(config: RewardConfig): void {
  for (const name of Object.keys(config.weights)) rewardTerm(name)
  if (!Object.values(config.weights).some((w) => w !== 0)) throw new Error(`The reward weighs no term; give at least one of ${rewardTermNames().join(', ')} a weight`)
}

export interface RewardValue {
  total: number
  /** Each weighted term's contribution (weight × raw); terms whose metric does not apply contribute 0 and are listed in `missing`. */
  components: Record<string, number>
  missing: string[]
}

export function computeReward(metrics: Readonly<Record<string, number | null>>, config: RewardConfig): RewardValue {
  const components: Record<string, number> = {}
  const missing: string[] = []
  let total = 0
  for (const [name, weight] of Object.entries(config.weights)) {
    if (weight === 0) continue
    const raw = rewardTerm(name).read(metrics, { normalisation: config.normalisation })
    if (raw === null) missing.push(name)
    const value = weight * (raw ?? 0)
    components[name] = value
    total += value
  }
  return { total, components, missing }
}
