import { defineStore } from 'pinia'
import { ref } from 'vue'
import { fitRunShape, RUN_SHAPES, type GgufRates, type RunShape } from '../../../common'
import type { RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useTrainingStore, type LaunchInput } from './training'

/** Runs of the same model, environment and context measured the rates a GGUF run is sized from (training.ggufRates). */
export interface RatesKey {
  workspaceId: string
  modelPath: string
  environment: string
  contextSize: number
}
export type MeasuredRates = NonNullable<RouteOutput<'training.ggufRates'>>

const keyOf = (k: RatesKey): string => JSON.stringify([k.workspaceId, k.modelPath, k.environment, k.contextSize])

/** The smallest shape the launcher offers: a speed check plays one step of it. */
export const SMALL_SHAPE = RUN_SHAPES.at(-1)!
/**
 * The shape a GGUF run starts from before this machine's rates are measured: stories260K on the demo world
 * finished it in 4 min on 2 shared cores and beat its base (README "The Training page's GGUF default"); a
 * larger model takes longer, which Measure speed tells before a long run.
 */
export const UNMEASURED_SHAPE = RUN_SHAPES.find((s) => s.steps === 6 && s.groupSize === 4 && s.questionsPerStep === 8)!
/** Held-out questions a speed check plays (at most): the rate is per question, so a few measure it. */
export const SPEED_CHECK_HELD_OUT = 4

const baseName = (path: string): string => path.split(/[\\/]/).pop() || path

/**
 * A speed check of a launch: a normal run of the same model, environment, options and questions, one
 * step of the smallest shape with at most SPEED_CHECK_HELD_OUT held-out questions, named as a speed check.
 */
export function speedCheckInput(input: LaunchInput): LaunchInput {
  return {
    ...input,
    name: `speed check: ${baseName(input.gguf?.modelPath ?? '')} (1 step)`,
    config: { ...input.config, steps: 1, groupSize: SMALL_SHAPE.groupSize, questionsPerStep: SMALL_SHAPE.questionsPerStep, evalInterval: 1, warmStart: null },
    heldOut: { ...input.heldOut, limit: Math.min(input.heldOut.limit, SPEED_CHECK_HELD_OUT) },
  }
}

/**
 * This machine's GGUF rates for the launcher's model (read from the newest run that measured them, never
 * made up), and the speed checks launched from it. `measured` is undefined until the backend answered for
 * the current key, null when no run has measured these rates.
 */
export const useGgufRatesStore = defineStore('gguf-rates', () => {
  const key = ref<string | null>(null)
  const measured = ref<MeasuredRates | null | undefined>(undefined)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  /** The job of the speed check launched for each key. */
  const checks = ref<Record<string, string>>({})

  async function load(of: RatesKey): Promise<void> {
    const k = keyOf(of)
    if (key.value !== k) {
      key.value = k
      measured.value = undefined
    }
    const out = await attempt(() => useApi().call('training.ggufRates', { workspaceId: of.workspaceId, modelPath: of.modelPath, environment: of.environment, contextSize: of.contextSize }))
    if (out !== undefined && key.value === k) measured.value = out
  }

  /** Launches the speed check of `input` (a real one-step run); its rates are read once it is done. */
  async function measure(of: RatesKey, input: LaunchInput): Promise<boolean> {
    const job = await useTrainingStore().launch(speedCheckInput(input))
    if (job) checks.value = { ...checks.value, [keyOf(of)]: job }
    return job !== null
  }

  /** The rates read for `of`: undefined while another key's (or none) are held. */
  const current = (of: RatesKey | null): MeasuredRates | null | undefined => (of && key.value === keyOf(of) ? measured.value : undefined)

  /** The job of this key's speed check while it is queued or running (null otherwise). */
  function checking(of: RatesKey): string | null {
    const job = checks.value[keyOf(of)]
    if (!job) return null
    const training = useTrainingStore()
    const live = training.launched.some((l) => l.job.id === job) || training.runs.some((r) => r.jobId === job && r.status === 'running')
    return live ? job : null
  }

  return { measured, error, load, current, measure, checking }
})

/** The budget the launcher fits a GGUF run to until the page asks for another. */
export const DEFAULT_BUDGET_MINUTES = 10

/**
 * The shape the launcher proposes for a GGUF run: with measured rates, the largest of RUN_SHAPES expected
 * to finish within the budget; without, UNMEASURED_SHAPE.
 */
export function proposedShape(rates: GgufRates | null, heldOutQuestions: number, evalInterval: number, budgetSeconds = DEFAULT_BUDGET_MINUTES * 60): Omit<RunShape, 'heldOutQuestions'> {
  if (!rates) return { ...UNMEASURED_SHAPE, evalInterval: Math.min(evalInterval, UNMEASURED_SHAPE.steps) }
  const { steps, groupSize, questionsPerStep, evalInterval: every } = fitRunShape(rates, budgetSeconds, heldOutQuestions, evalInterval)
  return { steps, groupSize, questionsPerStep, evalInterval: every }
}
