import type { AblationRowInput } from '../../../preload/contract'
import type { EnvironmentDecl, useCatalogStore } from './catalog'
import type { PolicyOption } from './ablation-policies'
import type { useModelsStore } from './models'
import type { useTrainingCatalogStore } from './training-catalog'

/** A row the builder offers: a delta over the base, grouped; `disabled` says plainly why it cannot be chosen here. */
export interface RowTemplate {
  key: string
  group: string
  label: string
  row: AblationRowInput
  disabled: string | null
}

export interface RowSources {
  catalog: ReturnType<typeof useCatalogStore>
  trainingCatalog: ReturnType<typeof useTrainingCatalogStore>
  models: ReturnType<typeof useModelsStore>
  /** The policies of the environment; every one but the base's is a row. */
  policies: PolicyOption[]
  basePolicyKey: string
  headDriven: boolean
}

/**
 * The rows an ablation over `env` can have: what the environments, policies, credit schemes, estimators
 * and reward presets declare, each disabled with its reason where this environment cannot run it.
 */
export function rowTemplates(env: EnvironmentDecl, from: RowSources): RowTemplate[] {
  const { catalog, models } = from
  const out: RowTemplate[] = []
  const add = (group: string, key: string, label: string, row: Omit<AblationRowInput, 'label' | 'group'>, disabled: string | null = null) => out.push({ key, group, label, row: { label, group, ...row }, disabled })
  const family = env.family === 'harness-1' ? 'Harness-1 switches' : 'Presets'
  for (const p of env.presets) if (Object.keys(p.delta).length > 0) add(family, `preset:${p.name}`, p.label, { preset: p.name })
  for (const other of catalog.environments.filter((e) => e.family === env.family && e.name !== env.name)) {
    add(env.family === 'harness-g' ? 'Menu vs free query' : 'Environment', `env:${other.name}`, other.name, { environment: other.name })
  }
  for (const p of from.policies) if (p.key !== from.basePolicyKey) add('Policy', `policy:${p.key}`, p.label, { policy: p.policy })
  // Edits over the published Harness-1 weights, scored on the same episodes' rewards (offered where the keys exist).
  if (catalog.usesHarness1Reward(env.name)) {
    const published = catalog.catalog?.rewardWeights ?? {}
    const variants: [string, string, Record<string, number>][] = [
      ['no-diversity', 'reward weights: w/o tool diversity', { diversity: 0, toolShortfall: 0 }],
      ['no-answer-gap', 'reward weights: w/o answer-gap penalty', { answerGap: 0 }],
      ['no-turn-penalty', 'reward weights: w/o turn penalty', { turnPenaltyMax: 0 }],
    ]
    for (const [key, label, weights] of variants) if (Object.keys(weights).every((k) => Object.hasOwn(published, k))) add('Reward weights (evaluation)', `weights:${key}`, label, { rewardWeights: weights })
  }
  const adapters = models.models.filter((m) => m.role === 'adapter')
  const base = models.models.find((m) => m.role === 'policy')
  if (base && adapters.length > 0) for (const a of adapters) add('Policy', `lora:${a.path}`, `GGUF + LoRA: ${base.name} + ${a.name}`, { policy: { kind: 'llm-lora', modelPath: base.path, loraPath: a.path } })
  else add('Policy', 'lora:none', 'GGUF + LoRA', {}, 'Register a GGUF model and a LoRA adapter on the Models page first')
  const tc = from.trainingCatalog.catalog
  const noHead = from.headDriven ? null : `The policy head does not drive ${env.name}`
  if (tc) {
    const usable = new Set(from.trainingCatalog.creditFor(env.name).map((c) => c.name))
    for (const c of tc.credit) add('Credit (training)', `credit:${c.name}`, `credit: ${c.label}`, { training: { credit: { scheme: c.name, lambda: 0.5 } } }, noHead ?? (usable.has(c.name) ? null : `${c.label} reads menu previews; ${env.name} has none`))
    for (const e of tc.estimators) add('Estimator (training)', `estimator:${e.name}`, `estimator: ${e.label}`, { training: { estimator: e.name } }, noHead)
    for (const r of tc.rewardPresets) add('Reward weights (training)', `reward:${r.name}`, `reward: ${r.label}`, { training: { reward: r.reward } }, noHead)
  }
  return out
}
