import type { z } from 'zod'
import { RewardConfigSchema } from '../../../preload/contract/training'
import { protocolTrainingDefaults, type ProtocolName } from '../../../preload/contract/protocols'
import { evidenceLevel, GOLD_LEVEL_LABELS, type GoldProfile } from './gold'
import { rewardTerm, rewardTermNames } from './terms'

export const rewardConfigSchema = RewardConfigSchema
export type RewardConfig = z.infer<typeof rewardConfigSchema>

export interface RewardPreset {
  name: string
  label: string
  config: RewardConfig
}

const preset = (name: string, label: string, weights: Record<string, number>, harness1Weights: Record<string, number> = {}): RewardPreset => ({
  name,
  label,
  config: { weights, normalisation: 'official', harness1Weights },
})

/** Presets, including Harness-1's published reward and the evidence F1 Harness-G trains on; the first of each gold level is that level's default. */
export const REWARD_PRESETS: readonly RewardPreset[] = [
  preset('sp-f1-all-gold', 'Supporting-fact F1 + all-gold bonus (the default on sentence gold)', { 'sp.f1': 1, 'sp.allGold': 1 }),
  preset('sp-f1', 'Supporting-fact F1 (Harness-G)', { 'sp.f1': 1 }),
  preset('paragraph-f1-all-gold', 'Paragraph F1 + all-gold-documents bonus (the default on paragraph gold)', { 'paragraph.f1': 1, 'paragraph.allGold': 1 }),
  preset('paragraph-f1', 'Paragraph F1', { 'paragraph.f1': 1 }),
  preset('answer-f1', 'Answer F1', { 'answer.f1': 1 }),
  preset('harness1-published', 'Harness-1 published reward', { harness1: 1 }),
  preset('harness1-no-diversity', 'Harness-1 without the tool-diversity reward', { harness1: 1 }, { diversity: 0, toolShortfall: 0 }),
  preset('sp-recall', 'Supporting-fact recall (see its warning)', { 'sp.recall': 1 }),
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

const weighted = (config: RewardConfig): [string, number][] => Object.entries(config.weights).filter(([, w]) => w !== 0)

/** The preset a question set with this gold trains on by default: F1 + all-gold at the finest evidence level, else answer F1. */
export function defaultRewardPreset(profile: Pick<GoldProfile, 'levels'>, family: 'harness-g' | 'harness-1' = 'harness-g'): RewardPreset {
  const level = evidenceLevel(profile)
  if (family === 'harness-1' && profile.levels.includes('paragraph')) return rewardPreset('harness1-published')
  if (level === 'sentence') return rewardPreset('sp-f1-all-gold')
  if (level === 'paragraph') return rewardPreset('paragraph-f1-all-gold')
  if (level === 'answer') return rewardPreset('answer-f1')
  throw new Error('The questions carry no gold (no supporting sentences, documents or answers): no reward can be computed on them')
}

/**
 * The reward a protocol's episode is scored by when nothing names one (the environment server's default and the
 * SFT export's), by its declared default (the contract's PROTOCOL_TRAINING_DEFAULTS, as training's): Harness-1's
 * published reward; else the evidence F1 at the gold's level (SP F1 on sentence gold, paragraph F1 on paragraph
 * gold, answer F1 without evidence gold). Without a gold profile: sentence gold.
 */
export function protocolDefaultReward(protocol: ProtocolName, gold?: GoldProfile): RewardConfig {
  if (protocolTrainingDefaults(protocol).reward === 'harness1') return rewardPreset('harness1-published').config
  const level = gold ? evidenceLevel(gold) : 'sentence'
  return rewardPreset(level === 'paragraph' ? 'paragraph-f1' : level === 'answer' ? 'answer-f1' : 'sp-f1').config
}

/** The weighted terms the questions cannot feed, each with the level it needs. */
export function unfitTerms(config: RewardConfig, profile: GoldProfile): { term: string; needs: string }[] {
  const out: { term: string; needs: string }[] = []
  for (const [name] of weighted(config)) {
    const needs = rewardTerm(name).needs
    if (needs !== null && !profile.levels.includes(needs)) out.push({ term: name, needs })
  }
  return out
}

/**
 * Throws when a weighted term needs gold the questions do not all carry: the message names the term,
 * the gold it needs, how many questions have it, and a preset that can be computed on them.
 */
export function checkRewardFits(config: RewardConfig, profile: GoldProfile, where: string, family: 'harness-g' | 'harness-1' = 'harness-g'): void {
  const unfit = unfitTerms(config, profile)
  if (unfit.length === 0) return
  const first = unfit[0]!
  const needs = first.needs as keyof typeof GOLD_LEVEL_LABELS
  const have = profile.levels.length ? profile.levels.map((l) => GOLD_LEVEL_LABELS[l]).join(', ') : 'no gold'
  let offer = ''
  try {
    offer = `; use the reward preset "${defaultRewardPreset(profile, family).name}", which can`
  } catch {
    offer = ''
  }
  throw new Error(
    `Reward term "${first.term}" (${rewardTerm(first.term).label}) needs ${GOLD_LEVEL_LABELS[needs]}, but only ${profile.counts[needs]} of the ${profile.questions} questions of ${where} carry it (they have ${have}): it would be 0 on every rollout that lacks it${unfit.length > 1 ? ` (so would ${unfit.slice(1).map((u) => `"${u.term}"`).join(', ')})` : ''}${offer}`,
  )
}

/** The best total an episode can reach under this reward (terms without a ceiling count 1). */
export function bestReward(config: RewardConfig): number {
  return weighted(config).reduce((s, [name, w]) => s + (w > 0 ? w * rewardTerm(name).best : 0), 0)
}

/**
 * Whether a rollout counts as correct for the zero-advantage split (all-correct / all-wrong groups):
 * its reward reaches half of the best the reward allows. Judged by the run's own reward, a zero reward
 * is never "correct"; null when the reward has no positive ceiling (costs only).
 */
export function rewardCorrect(total: number, config: RewardConfig): boolean | null {
  const best = bestReward(config)
  return best > 0 ? total >= best / 2 : null
}

/** The per-episode metric a run on this reward is judged by: that of its first positively weighted term that follows one. */
export function headlineMetric(config: RewardConfig): string | null {
  for (const [name, w] of weighted(config)) if (w > 0 && rewardTerm(name).metric) return rewardTerm(name).metric
  return null
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
