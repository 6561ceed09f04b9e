import type { AblationPolicy, RouteOutput } from '../../../preload/contract'
import type { useCatalogStore } from './catalog'
import type { useModelsStore } from './models'
import { trainedPolicies } from './runs'
import type { useTrainingCatalogStore } from './training-catalog'

/** A policy the ablation builder offers, keyed as the draft stores it. */
export interface PolicyOption {
  key: string
  label: string
  policy: AblationPolicy
}

/** The draft's key for a policy: a saved ablation's base policy finds its option again by it. */
export const policyKey = (p: AblationPolicy): string =>
  p.kind === 'scripted' ? `scripted:${p.name}`
  : p.kind === 'head' ? ('stage' in p ? `head:${p.stage}` : `head:run:${p.trainingRun}:${p.step ?? 'last'}`)
  : p.kind === 'head-file' ? `head-file:${p.path}`
  : p.kind === 'gguf-run' ? `gguf-run:${p.trainingRun}`
  : p.kind === 'llm' ? `llm:${p.modelPath}` : `lora:${p.modelPath}:${p.loraPath}`

export interface PolicySources {
  catalog: ReturnType<typeof useCatalogStore>
  trainingCatalog: ReturnType<typeof useTrainingCatalogStore>
  models: ReturnType<typeof useModelsStore>
  /** Finished training runs of the workspace: their heads are policies too. */
  trainedRuns: RouteOutput<'training.runs'>
  /** Whether the policy head drives the chosen environment. */
  headDriven: boolean
}

/** Policies the base (and policy rows) can use in the chosen environment. */
export function policyOptions(draft: { environment: string; steps: number; trainKind: 'head' | 'gguf' }, from: PolicySources): PolicyOption[] {
  const { catalog, trainingCatalog, models } = from
  const out: PolicyOption[] = catalog.policiesFor(draft.environment).map((p) => ({ key: `scripted:${p.name}`, label: `scripted: ${p.name}`, policy: { kind: 'scripted', name: p.name } }))
  if (from.headDriven) {
    out.push({ key: 'head:before', label: 'head before training', policy: { kind: 'head', stage: 'before' } })
    // With GGUF training chosen, "after training" plays the trained GGUF weights, not a head.
    // Says what it does: each of its cells trains first (the short run below), then evaluates what it trained.
    const training = `outcome, ${draft.steps} step${draft.steps === 1 ? '' : 's'}`
    out.push({ key: 'head:after', label: draft.trainKind === 'gguf' ? `trains new GGUF weights: ${training}` : `trains a new head: ${training}`, policy: { kind: 'head', stage: 'after' } })
  }
  // A training run's head or GGUF weights (finished, or stopped at a checkpoint) evaluate as an ordinary policy where they speak the environment's protocol.
  const envs = trainingCatalog.catalog?.environments ?? []
  const protocol = envs.find((e) => e.name === draft.environment)?.protocol
  for (const t of trainedPolicies(from.trainedRuns)) {
    if (envs.find((e) => e.name === t.run.environment)?.protocol !== protocol) continue
    out.push({ key: policyKey(t.spec), label: t.label, policy: t.spec })
  }
  // A file trained here says which run and step wrote it (its name alone, "step-1.gguf", does not).
  const trainedBy = (m: (typeof models.models)[number]): string => (m.provenance ? ` (trained by run #${m.provenance.runId}, step ${m.provenance.step})` : '')
  for (const m of models.models.filter((x) => x.role === 'policy')) out.push({ key: `llm:${m.path}`, label: `GGUF: ${m.name}${trainedBy(m)}`, policy: { kind: 'llm', modelPath: m.path, temperature: 0, topK: 0, topP: 1 } })
  return out
}
