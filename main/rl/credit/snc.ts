/**
 * Structured Non-myopic Credit (Harness-G paper; README, "Environments, policies and evaluation", Training). Two terms per step, both from
 * the frozen answerer's scores of read-only previews, so no extra rollouts:
 *  - frontier: gain of the chosen information action minus the mean gain of up to 4 type-stratified
 *    same-state alternatives; it asks "was this a better move than the others on offer here?";
 *  - enablement: a later step's positive frontier credit flows back, split evenly, to its direct
 *    provenance producers, so a bridge SELECT that gains nothing itself is paid for the LOOKUP it made
 *    possible.
 * `snc-stop` (snc-stop.ts) adds credit for stopping: an ANSWER's frontier against continuing.
 */
import { pickAlternatives } from './alternatives'
import { canonicalSet, memoScorer, newEvidence, type MemoScorer } from './evidence'
import {
  clampTo,
  isInformationAction,
  resolveCreditOptions,
  type CreditAlternative,
  type CreditDeclaration,
  type CreditScheme,
  type CreditStep,
  type StepCredit,
} from './types'

/**
 * score(committed ∪ new(a)) − score(committed). An action that adds nothing gains exactly 0 without
 * a scorer call, so re-surfacing seen text can never earn credit through answerer noise.
 */
const gainOf = async (scorer: MemoScorer, step: CreditStep, type: string, preview: readonly number[]): Promise<number> => {
  const added = newEvidence(type, preview, step.seenBefore, step.committedBefore)
  if (added.length === 0) return 0
  const after = await scorer.score([...step.committedBefore, ...added])
  const before = await scorer.score(step.committedBefore)
  return after - before
}

export const validateProducers = (steps: readonly CreditStep[]): number[][] =>
  steps.map((step, t) => {
    for (const p of step.producers) {
      if (!Number.isInteger(p) || p < 0 || p >= t) throw new RangeError(`step ${t} lists producer ${p}; producers must be earlier steps`)
    }
    return canonicalSet(step.producers)
  })

interface Frontier {
  gain: number
  frontier: number
  alternatives: CreditAlternative[]
}

/** The mean gain of up to k same-state information alternatives, and the alternatives with their gains. */
const alternativesOf = async (scorer: MemoScorer, step: CreditStep, t: number, seed: number, k: number): Promise<{ baseline: number; alternatives: CreditAlternative[] }> => {
  const alternatives: CreditAlternative[] = []
  // Sequential on purpose: a workstation answerer is one model, so concurrent calls would only queue,
  // and a fixed call order keeps the caller's cache and logs reproducible.
  for (const item of pickAlternatives(step, seed, t, k)) {
    alternatives.push({ id: item.id, type: item.type, gain: await gainOf(scorer, step, item.type, step.previewOf[item.id]!) })
  }
  const baseline = alternatives.length === 0 ? 0 : alternatives.reduce((sum, a) => sum + a.gain, 0) / alternatives.length
  return { baseline, alternatives }
}

/**
 * With `stop`, an ANSWER (the episode stops here with what it holds) is measured against continuing: its
 * gain is 0 (it adds nothing) and its frontier is minus the mean gain of the same-state alternatives, so
 * stopping while a move would still raise the answerer's score is charged, and stopping when none would is
 * free (or paid, where the alternatives would lower it).
 */
const frontierOf = async (scorer: MemoScorer, step: CreditStep, t: number, seed: number, k: number, stop: boolean): Promise<Frontier> => {
  const { type, id } = step.chosen
  if (stop && type === 'ANSWER') {
    const { baseline, alternatives } = await alternativesOf(scorer, step, t, seed, k)
    return { gain: 0, frontier: -baseline, alternatives }
  }
  const preview = step.previewOf[id]
  // ANSWER and invalid steps are not information actions; a chosen item without a preview cannot be
  // measured, and subtracting its alternatives' gains from an assumed 0 would punish it for a gap in
  // the data, so it gets no frontier credit either (it can still receive enablement).
  if (!isInformationAction(type) || preview === undefined) return { gain: 0, frontier: 0, alternatives: [] }
  const gain = await gainOf(scorer, step, type, preview)
  const { baseline, alternatives } = await alternativesOf(scorer, step, t, seed, k)
  return { gain, frontier: gain - baseline, alternatives }
}

export const snc: CreditScheme = (input, options) => sncCredit(input, options, false)

/** SNC's credit of an episode; `stop`: with credit for stopping, each ANSWER's frontier against continuing (frontierOf; snc-stop.ts). */
export async function sncCredit(input: Parameters<CreditScheme>[0], options: Parameters<CreditScheme>[1], stop: boolean): Promise<StepCredit[]> {
  const { clamp, maxAlternatives } = resolveCreditOptions(options)
  if (!Number.isInteger(input.seed)) throw new RangeError(`seed must be an integer, got ${input.seed}`)
  const producers = validateProducers(input.steps)
  const scorer = memoScorer(input.score)
  const frontiers: Frontier[] = []
  for (const [t, step] of input.steps.entries()) frontiers.push(await frontierOf(scorer, step, t, input.seed, maxAlternatives, stop))

  // Only the positive part flows back: a producer opened an opportunity but did not choose what was
  // done with it. A later step that wasted the opportunity is charged through its own (negative)
  // frontier credit; passing that back would punish the bridge for its successor's mistake and make
  // surfacing useful leads look risky. One hop only (direct producers), as the paper.
  const enablement = input.steps.map(() => 0)
  producers.forEach((ps, t) => {
    const f = frontiers[t]!.frontier
    if (!(f > 0) || ps.length === 0) return
    for (const p of ps) enablement[p]! += f / ps.length
  })

  return frontiers.map((f, t) => ({
    total: clampTo(f.frontier + enablement[t]!, clamp),
    frontier: f.frontier,
    enablement: enablement[t]!,
    gain: f.gain,
    alternatives: f.alternatives,
  }))
}

export const sncDeclaration: CreditDeclaration = {
  name: 'snc',
  label: 'Structured Non-myopic Credit (SNC)',
  description:
    'Harness-G: frontier-relative gain of each action against up to four same-state menu alternatives, plus enablement credit passed back over provenance; combined with the outcome advantage by lambda. Needs menu previews.',
  capabilities: { needsPreviews: true, usesLambda: true },
  impl: snc,
}
