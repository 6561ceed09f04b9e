/**
 * How long a training run takes on this machine, from what its steps measured: the time left in a run, and
 * the expected length of a GGUF run's shape (steps x group size x questions per step) from the rates a
 * finished step measured, with the largest shape that fits a time budget. Pure: the backend (progress lines)
 * and the renderer (the launcher's estimate) compute the same figures.
 */

/**
 * Diagnostics a step stores that measure this machine's wall time, not the run: a resumed or repeated run with
 * the same seed matches another in every diagnostic but these.
 */
export const WALL_TIME_DIAGNOSTICS = [
  'seconds',
  'rolloutSeconds',
  'heldOutSeconds',
  'rolloutsPerSecond',
  'secondsPerUpdate',
  'tokensPerSecond',
  'trainedTokensPerSecond',
  'trainerPeakRssBytes',
] as const

/** A step's diagnostics without its wall-time figures (what a seeded run reproduces). */
export function withoutWallTime(diagnostics: Record<string, unknown>): Record<string, unknown> {
  const out = { ...diagnostics }
  for (const k of WALL_TIME_DIAGNOSTICS) delete out[k]
  return out
}

/** One finished step's wall time and, at an evaluation step, the part its held-out pass took. */
export interface StepTiming {
  seconds: number
  heldOutSeconds: number | null
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

/** Held-out passes of steps `from`..steps-1 (every evalInterval-th step) and the final one. */
function evaluationsFrom(from: number, steps: number, evalInterval: number): number {
  let n = 1
  for (let s = from; s < steps; s++) if (s % evalInterval === 0) n++
  return n
}

/**
 * Seconds left after step `step` (0-based, finished): the remaining steps at the mean measured step time
 * without its held-out pass, plus their held-out passes and the final one at the mean measured pass. null
 * before a step has finished.
 */
export function remainingSeconds(timing: readonly StepTiming[], shape: { steps: number; evalInterval: number }, step: number): number | null {
  if (!timing.length) return null
  const passes = timing.flatMap((t) => (t.heldOutSeconds === null ? [] : [t.heldOutSeconds]))
  const pass = passes.length ? mean(passes) : 0
  const bare = mean(timing.map((t) => t.seconds - (t.heldOutSeconds ?? 0)))
  return Math.max(0, shape.steps - step - 1) * bare + evaluationsFrom(step + 1, shape.steps, Math.max(1, shape.evalInterval)) * pass
}

/** A GGUF run's costs on this machine, as its finished steps measured them. */
export interface GgufRates {
  /** One sampled rollout (an episode of the GGUF policy). */
  secondsPerRollout: number
  /** Decisions (trained sequences) per rollout. */
  decisionsPerRollout: number
  /** The update, per decision trained. */
  updateSecondsPerDecision: number
  /** The greedy held-out pass, per question. */
  heldOutSecondsPerQuestion: number
  /** The rest of a step: saving the weights and loading them for the next step's rollouts. */
  stepOverheadSeconds: number
}

export interface RunShape {
  steps: number
  groupSize: number
  questionsPerStep: number
  heldOutQuestions: number
  evalInterval: number
}

export function expectedRunSeconds(rates: GgufRates, shape: RunShape): number {
  const rollouts = shape.groupSize * shape.questionsPerStep
  const step = rollouts * rates.secondsPerRollout + rollouts * rates.decisionsPerRollout * rates.updateSecondsPerDecision + rates.stepOverheadSeconds
  const passes = evaluationsFrom(0, shape.steps, Math.max(1, shape.evalInterval))
  return shape.steps * step + passes * shape.heldOutQuestions * rates.heldOutSecondsPerQuestion
}

/** Shapes from the head's default down, largest first: a budget picks the first that fits. */
export const RUN_SHAPES: ReadonlyArray<Pick<RunShape, 'steps' | 'groupSize' | 'questionsPerStep'>> = [
  { steps: 30, groupSize: 8, questionsPerStep: 16 },
  { steps: 24, groupSize: 8, questionsPerStep: 16 },
  { steps: 20, groupSize: 8, questionsPerStep: 8 },
  { steps: 16, groupSize: 8, questionsPerStep: 8 },
  { steps: 12, groupSize: 8, questionsPerStep: 8 },
  { steps: 12, groupSize: 4, questionsPerStep: 8 },
  { steps: 8, groupSize: 4, questionsPerStep: 8 },
  { steps: 6, groupSize: 4, questionsPerStep: 8 },
  { steps: 6, groupSize: 4, questionsPerStep: 4 },
  { steps: 4, groupSize: 4, questionsPerStep: 4 },
]

/** The largest of RUN_SHAPES that is expected to finish within the budget (the smallest when none does), evaluating every `evalInterval` steps capped at its steps. */
export function fitRunShape(rates: GgufRates, budgetSeconds: number, heldOutQuestions: number, evalInterval: number): RunShape & { expectedSeconds: number } {
  const sized = RUN_SHAPES.map((s) => {
    const shape = { ...s, heldOutQuestions, evalInterval: Math.min(evalInterval, s.steps) }
    return { ...shape, expectedSeconds: expectedRunSeconds(rates, shape) }
  })
  return sized.find((s) => s.expectedSeconds <= budgetSeconds) ?? sized.at(-1)!
}

/** "45 s", "12 min", "2 h 05 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s < 90) return `${s} s`
  const m = Math.round(s / 60)
  if (m < 120) return `${m} min`
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`
}
