/**
 * Resolves an ablation's rows when it is saved: each row becomes the full delta it runs (environment,
 * config, policy, reward weights, training config) or a plain reason why it cannot run here. A typo
 * (unknown environment, option or preset) is an error at once; a row the build or the environment cannot
 * serve (a LoRA adapter without LoRA support, credit that reads menu previews on a tools environment)
 * is kept and says why.
 */
import { existsSync, readFileSync } from 'node:fs'
import type SQLite from 'better-sqlite3'
import { PolicySpec, type AblationBase, type AblationConfig, type AblationPolicy, type AblationRow, type ResolvedRow } from '../../../preload/contract'
import { createEnvironment, environmentContext, environmentFactory } from '../../harness'
import { candidateBuilder, readHeadWeights } from '../../policy/head-policy'
import { scriptedPolicies } from '../../policy/scripted'
import { resolveHarness1Weights } from '../../rl/rewards'
import { resolveTrainConfig, trainedHeadFor } from '../training'
import { trainedGguf } from '../training/trained-head'
import { ggufPolicyKind } from '../training/config/gguf-policy'

/** Whether this build's GGUF policy takes a LoRA adapter (another part of the app adds it to the policy spec). */
export function loraSupported(): boolean {
  return PolicySpec.safeParse(loraPolicySpec('x.gguf', 'x.gguf')).success
}

/** The GGUF policy spec of a model with a LoRA adapter, in the shape the policy spec takes. */
export const loraPolicySpec = (modelPath: string, loraPath: string) => ({ kind: 'llm', modelPath, lora: { path: loraPath } })

/** A training row's policy when the ablation trains the GGUF model: its own weights after the row's training run. */
export interface TrainedGgufPolicy {
  kind: 'gguf'
  stage: 'after'
  modelPath: string
}

export const isTrainedGguf = (p: Record<string, unknown>): p is TrainedGgufPolicy & Record<string, unknown> => p['kind'] === 'gguf' && p['stage'] === 'after' && typeof p['modelPath'] === 'string'

const isHead = (p: AblationPolicy): p is { kind: 'head'; stage: 'before' | 'after' } => p.kind === 'head' && 'stage' in p

/** The training config a training row runs with one seed (its held-out split is the ablation's split). */
export function trainingConfig(base: AblationBase, row: ResolvedRow, seed: number, name: string): Record<string, unknown> {
  const t = base.training
  const delta = (row.training ?? {}) as Partial<Pick<AblationBase['training'], 'credit' | 'estimator' | 'reward'>>
  return {
    name,
    environment: row.environment,
    envConfig: row.envConfig,
    credit: delta.credit ?? t.credit,
    estimator: delta.estimator ?? t.estimator,
    // Left out, the training run picks the default for the set's gold level.
    ...((delta.reward ?? t.reward) !== undefined ? { reward: delta.reward ?? t.reward } : {}),
    groupSize: t.groupSize,
    questionsPerStep: t.questionsPerStep,
    steps: t.steps,
    evalInterval: t.evalInterval,
    seed,
    train: { questionSetId: base.questionSetId, offset: t.offset, limit: t.limit, ...(t.split !== undefined ? { split: t.split } : {}) },
    heldOut: { questionSetId: base.questionSetId, offset: base.offset, limit: base.limit, ...(base.split !== undefined ? { split: base.split } : {}) },
    ...(t.gguf ? { gguf: t.gguf } : {}),
  }
}

function resolveRow(raw: SQLite.Database, base: AblationBase, row: AblationRow, index: number): ResolvedRow {
  const environment = row.environment ?? base.environment
  const factory = environmentFactory(environment)
  let envConfig: Record<string, unknown> = row.environment && row.environment !== base.environment ? {} : { ...base.envConfig }
  if (row.preset !== undefined) {
    const preset = factory.presets.find((p) => p.name === row.preset)
    if (!preset) throw new Error(`Row "${row.label}": ${environment} has no preset "${row.preset}"; presets: ${factory.presets.map((p) => p.name).join(', ')}`)
    envConfig = { ...envConfig, ...preset.delta }
  }
  envConfig = { ...envConfig, ...(row.envConfig ?? {}) }
  try {
    createEnvironment(environment, environmentContext(raw), envConfig)
  } catch (err) {
    throw new Error(`Row "${row.label}": ${err instanceof Error ? err.message : String(err)}`)
  }
  const rewardWeights = { ...base.rewardWeights, ...(row.rewardWeights ?? {}) }
  try {
    resolveHarness1Weights(rewardWeights)
  } catch (err) {
    throw new Error(`Row "${row.label}": ${err instanceof Error ? err.message : String(err)}`)
  }
  const asked: AblationPolicy = row.training ? { kind: 'head', stage: 'after' } : (row.policy ?? base.policy)
  const kind = isHead(asked) && asked.stage === 'after' ? 'train' : 'eval'
  // With GGUF training options in the base, every training row trains the model's own weights instead of the head.
  const gguf = kind === 'train' ? base.training.gguf : undefined
  const policy: AblationPolicy | TrainedGgufPolicy = gguf ? { kind: 'gguf', stage: 'after', modelPath: gguf.modelPath } : asked
  const resolved: ResolvedRow = {
    index,
    label: row.label,
    group: row.group,
    kind,
    environment,
    envConfig,
    policy: policy as Record<string, unknown>,
    rewardWeights,
    training: kind === 'train' ? { ...(row.training ?? {}) } : null,
    unavailable: null,
  }
  resolved.unavailable = unavailableReason(raw, base, resolved, policy)
  return resolved
}

/** Why a well-formed row cannot run here, or null. */
function unavailableReason(raw: SQLite.Database, base: AblationBase, row: ResolvedRow, policy: AblationPolicy | TrainedGgufPolicy): string | null {
  const { protocol } = environmentFactory(row.environment)
  switch (policy.kind) {
    case 'gguf':
      // The environment's protocol needs an LLM policy kind, and the model file must exist (the training run's own checks).
      try {
        resolveTrainConfig(raw, trainingConfig(base, row, base.seeds[0]!, 'check') as never)
        return null
      } catch (err) {
        return err instanceof Error ? err.message : String(err)
      }
    case 'scripted': {
      const p = scriptedPolicies().find((s) => s.name === policy.name)
      if (!p) return `No scripted policy "${policy.name}"; known: ${scriptedPolicies().map((s) => s.name).join(', ')}`
      if (!p.protocols.includes(protocol)) return `The scripted policy "${policy.name}" does not speak ${protocol} (${row.environment}); it drives ${p.protocols.join(', ')}`
      return null
    }
    case 'llm':
      return existsSync(policy.modelPath) ? null : `No model file at ${policy.modelPath}`
    case 'llm-lora':
      if (!loraSupported()) return 'LoRA adapters are not available in this build: the GGUF policy has no lora option yet'
      if (!existsSync(policy.modelPath)) return `No model file at ${policy.modelPath}`
      return existsSync(policy.loraPath) ? null : `No LoRA adapter file at ${policy.loraPath}`
    case 'gguf-run':
      // A finished GGUF run's weights: found (its last saved file) and driving the row's environment's protocol.
      try {
        trainedGguf(raw, policy.trainingRun, policy.step)
        ggufPolicyKind(row.environment, protocol)
        return null
      } catch (err) {
        return err instanceof Error ? err.message : String(err)
      }
    case 'head-file':
      try {
        readHeadWeights(readFileSync(policy.path, 'utf8'), protocol, policy.path)
        return null
      } catch (err) {
        return err instanceof Error ? err.message : String(err)
      }
    case 'head': {
      if ('trainingRun' in policy) {
        try {
          trainedHeadFor(raw, policy.trainingRun, policy.step, row.environment)
          return null
        } catch (err) {
          return err instanceof Error ? err.message : String(err)
        }
      }
      try {
        candidateBuilder(protocol)
      } catch (err) {
        return err instanceof Error ? err.message : String(err)
      }
      if (row.kind !== 'train') return null
      try {
        resolveTrainConfig(raw, trainingConfig(base, row, base.seeds[0]!, 'check') as never)
      } catch (err) {
        return err instanceof Error ? err.message : String(err)
      }
      return null
    }
  }
}

/** Row 0 is the base itself; the chosen rows follow in order. */
export function resolveAblation(raw: SQLite.Database, config: AblationConfig): ResolvedRow[] {
  const rows = [{ label: 'base', group: 'base' } as AblationRow, ...config.rows]
  return rows.map((row, i) => resolveRow(raw, config.base, row, i))
}
