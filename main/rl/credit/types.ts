import type { PluginDeclaration } from '../named-registry'

/**
 * Per-step credit for one episode (README, "Environments, policies and evaluation", Training). The trainer extracts these steps from a
 * trajectory and supplies the frozen answerer as an EvidenceScorer; nothing here touches an
 * environment, a model or the database, so every scheme is a pure function of its input.
 */

/** One item on the menu at a state. */
export interface CreditMenuItem {
  id: string
  type: string
}

/** One step of an episode, as the trainer extracts it from a trajectory. */
export interface CreditStep {
  /**
   * The chosen action: menu id and type ('SELECT' | 'LOOKUP' | 'ANSWER_WITH' | 'ANSWER', or 'SEARCH'
   * in free query). Invalid steps: type null.
   */
  chosen: { id: string; type: string | null }
  /** Every item on the menu at this state (chosen included). */
  menu: readonly CreditMenuItem[]
  /**
   * Sentence ids each item would add, from the environment's read-only previews (a SELECT/ANSWER_WITH
   * commits its sentence; a LOOKUP/SEARCH makes sentences visible). Missing = no preview.
   */
  previewOf: Readonly<Record<string, readonly number[]>>
  /** Sentences visible (seen) before the step. */
  seenBefore: readonly number[]
  /** Sentences committed before the step. */
  committedBefore: readonly number[]
  /**
   * Earlier steps (indices) whose action surfaced what this step uses (provenance edges): the step
   * that made visible the sentence a SELECT commits, or the one that surfaced the entity a LOOKUP uses.
   */
  producers: readonly number[]
}

/**
 * The frozen answerer's score of an evidence set (mean log-prob of the gold answer given these
 * sentences; higher is better). Called with sorted, de-duplicated ids. Async; the caller caches.
 */
export type EvidenceScorer = (sentenceIds: readonly number[]) => Promise<number>

export interface CreditInput {
  steps: readonly CreditStep[]
  score: EvidenceScorer
  /** Drives the choice of frontier alternatives, together with the step index. */
  seed: number
}

export interface CreditAlternative {
  id: string
  type: string
  gain: number
}

export interface StepCredit {
  /** frontier + enablement, clamped to [-clamp, clamp]; what combineAdvantages uses. */
  total: number
  /** Gain of the chosen action minus the mean gain of its same-state alternatives (SNC). */
  frontier: number
  /** Positive frontier credit received back from the later steps this one enabled (SNC). */
  enablement: number
  /** Raw gain of the chosen action (SNC), or the per-turn likelihood change (info-gain). */
  gain: number
  /** The alternatives the frontier credit was measured against, with their gains. */
  alternatives: CreditAlternative[]
}

export interface CreditOptions {
  /** Bound on |total|; 1 by default. */
  clamp?: number
  /** Most same-state alternatives per step (SNC); 4 by default, as the paper. */
  maxAlternatives?: number
}

export type CreditScheme = (input: CreditInput, options?: CreditOptions) => Promise<StepCredit[]>

/** What a scheme needs and does, read by the catalogue and the config checks instead of its name. */
export interface CreditCapabilities {
  /** Reads the environment's read-only menu previews: only menu environments can feed it. */
  needsPreviews: boolean
  /** Its per-step credit is combined with the outcome advantage by the config's lambda. */
  usesLambda: boolean
}

export type CreditDeclaration = PluginDeclaration<CreditScheme, CreditCapabilities>

/** Actions that commit their previewed sentence. */
export const COMMIT_TYPES: ReadonlySet<string> = new Set(['SELECT', 'ANSWER_WITH'])
/** Actions that make their previewed sentences visible. */
export const SURFACE_TYPES: ReadonlySet<string> = new Set(['LOOKUP', 'SEARCH'])

/** Information actions are the only ones that earn SNC credit; ANSWER, invalid and unknown types do not. */
export const isInformationAction = (type: string | null): type is string =>
  type !== null && (COMMIT_TYPES.has(type) || SURFACE_TYPES.has(type))

export const resolveCreditOptions = (options: CreditOptions = {}): Required<CreditOptions> => {
  const clamp = options.clamp ?? 1
  const maxAlternatives = options.maxAlternatives ?? 4
  if (!(clamp > 0)) throw new RangeError(`clamp must be positive, got ${clamp}`)
  if (!Number.isInteger(maxAlternatives) || maxAlternatives < 0) {
    throw new RangeError(`maxAlternatives must be a non-negative integer, got ${maxAlternatives}`)
  }
  return { clamp, maxAlternatives }
}

export const zeroCredit = (): StepCredit => ({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })

export const clampTo = (x: number, bound: number): number => Math.min(bound, Math.max(-bound, x))
