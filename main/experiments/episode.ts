import type { Answerer } from '../harness/answerer'
import type { Policy } from '../harness/policy'
import type { Environment, EnvQuestion, Preview } from '../harness/types'
import type { EvidenceResolver } from './evidence'
import { scoreEpisode } from './score'
import type { RecordedEpisode, RecordedStep } from './store'

/** Per-episode reward hook (Harness-1's terms); returns metrics to store beside the evaluation metrics. */
export type EpisodeRewarder = (env: Environment, question: EnvQuestion, outcome: ReturnType<Environment['outcome']>) => Record<string, number | null>

export interface EpisodeOptions {
  rewarder?: EpisodeRewarder
  /** Compute and store the preview of every menu item at every step (Harness-G; cheap by design). */
  previews: boolean
  /** Hard stop against a policy that never ends an episode, beyond the environment's own limit. */
  maxSteps: number
}

/** Runs one episode to its end, recording every step's observation, menu, previews, decision and snapshot. */
export async function runEpisode(
  env: Environment,
  policy: Policy,
  answerer: Answerer,
  question: EnvQuestion,
  seed: number,
  evidence: EvidenceResolver,
  options: EpisodeOptions,
): Promise<Omit<RecordedEpisode, 'questionId'>> {
  const t0 = performance.now()
  let observation = await env.reset(question, seed)
  policy.reset({ seed, question })
  const steps: RecordedStep[] = []
  for (let t = 0; !env.done && t < options.maxSteps; t++) {
    const ts = performance.now()
    const actions = env.actions()
    let previews: Record<string, Preview | null> | null = null
    if (options.previews && actions.kind === 'menu') {
      previews = {}
      for (const item of actions.items) previews[item.id] = await env.preview({ kind: 'menu', id: item.id })
    }
    const { action, ...decision } = await policy.act(observation, actions)
    const result = await env.step(action)
    steps.push({ t, observationText: observation.text, actions, previews, action, decision, info: result.info, snapshot: env.snapshot(), ms: performance.now() - ts })
    observation = result.observation
  }
  const outcome = env.outcome()
  const evidenceTexts = outcome.evidence.sentenceIds
    ? evidence.sentences(outcome.evidence.sentenceIds).map((s) => s.text)
    : evidence.chunks(outcome.evidence.chunkIds ?? []).map((c) => c.text)
  const answer = outcome.answer ?? (await answerer.answer(question.question, evidenceTexts))
  const metrics = { ...scoreEpisode(question, outcome, answer, evidence), ...(options.rewarder?.(env, question, outcome) ?? {}) }
  return { question, seed, answer, outcome, metrics, steps, ms: performance.now() - t0 }
}
