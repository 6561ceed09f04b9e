import { GgufTrainSchema, type AblationDetail, type AblationPolicy, type AblationRowInput, type GgufTrainConfig, type RouteInput } from '../../../preload/contract'
import { policyKey } from './ablation-policies'

/** The ablation builder's form: the base, the chosen rows (template keys), seeds and what training rows train. */
export interface AblationDraft {
  name: string
  environment: string
  policyKey: string
  questionSetId: number | null
  /** A stored split to evaluate on ('' = the whole set); training rows train on `trainSplit`. */
  split: string
  offset: number
  limit: number
  seeds: string
  parallel: number
  trainSplit: string
  trainOffset: number
  trainLimit: number
  steps: number
  /** What the training rows train: the head (features), or a registered F32 GGUF policy's own weights (`gguf`). */
  trainKind: 'head' | 'gguf'
  gguf: GgufTrainConfig
  chosen: string[]
}

/** The contract's GGUF training defaults, with no model chosen yet. */
export const ggufDefaults = (): GgufTrainConfig => ({ ...GgufTrainSchema.parse({ modelPath: '-' }), modelPath: '' })

export const newDraft = (): AblationDraft => ({
  name: '',
  environment: 'graph-menu',
  policyKey: 'scripted:greedy',
  questionSetId: null,
  split: '',
  offset: 0,
  limit: 20,
  seeds: '1',
  parallel: 0,
  trainSplit: '',
  trainOffset: 20,
  trainLimit: 20,
  steps: 4,
  trainKind: 'head',
  gguf: ggufDefaults(),
  chosen: [],
})

/** A saved ablation's config as the form shows it (all but the rows, which are matched to templates). */
export function draftOfSaved(detail: AblationDetail): Omit<AblationDraft, 'chosen'> {
  const b = detail.config.base
  return { name: `${detail.name} (copy)`, environment: b.environment, policyKey: policyKey(b.policy), questionSetId: b.questionSetId, split: b.split ?? '', trainSplit: b.training.split ?? '', offset: b.offset, limit: b.limit, seeds: b.seeds.join(', '), trainOffset: b.training.offset, trainLimit: b.training.limit, steps: b.training.steps, parallel: detail.config.parallel, trainKind: b.training.gguf ? 'gguf' : 'head', gguf: b.training.gguf ? { ...b.training.gguf } : ggufDefaults() }
}

/** The config `ablations.save` stores for the form: its base over `policy` and `questionSetId`, and the chosen rows. */
export function configOfDraft(draft: AblationDraft, policy: AblationPolicy, questionSetId: number, seeds: number[], rows: AblationRowInput[]): RouteInput<'ablations.save'>['config'] {
  return {
    base: {
      environment: draft.environment,
      policy,
      questionSetId,
      ...(draft.split ? { split: draft.split } : {}),
      offset: draft.offset,
      limit: draft.limit,
      seeds,
      training: {
        ...(draft.trainSplit ? { split: draft.trainSplit } : {}),
        offset: draft.trainOffset,
        limit: draft.trainLimit,
        steps: draft.steps,
        evalInterval: Math.max(1, Math.ceil(draft.steps / 4)),
        // Every training row then trains this model's own weights and evaluates the trained weights (the builder asks for a model when it has training rows).
        ...(draft.trainKind === 'gguf' && draft.gguf.modelPath !== '' ? { gguf: { ...draft.gguf } } : {}),
      },
    },
    rows,
    parallel: draft.parallel,
  }
}
