/**
 * The trainable head as a policy: it encodes every candidate of a decision into the layout's feature
 * rows, scores them (optionally on top of a frozen LLM's log-probabilities of the same candidates), and
 * samples from the softmax with the episode's own random stream, or takes the argmax. Every decision is
 * kept in memory with its rows, so a trainer can recompute log-probabilities and gradients under newer
 * parameters (PPO/CISPO substeps) without replaying the environment.
 */
import { seededRandom } from '../../eval'
import type { Policy, PolicyDecision } from '../../harness'
import { protocolDeclaration, type ActionSpace, type EnvQuestion, type Observation } from '../../harness'
import { argmax, sampleIndex, type PolicyHead } from '../head'
import { encode, layoutDimension } from './features'
import type { Candidate, CandidateBuilder } from './candidate'

/** The head's own draws: a stream of their own, so the episode seed never echoes another seeded component. */
const STREAM = 0x48454144

/** Log-probabilities of each candidate under a frozen LLM (the prior), or null where it has none. */
export type PriorProvider = (observation: Observation, candidates: readonly Candidate[]) => Promise<number[] | null>

export interface HeadDecisionRecord {
  /** The episode step (act() call) this decision was made at. */
  t: number
  rows: Float64Array[]
  prior: number[] | null
  chosen: number
  logp: number
  entropy: number
  type: string
  /** Every candidate's type (the credit's type-stratified alternatives read them). */
  types: string[]
}

export interface HeadPolicyOptions {
  /** 'sample' for rollouts, 'greedy' (argmax) for evaluation. */
  mode: 'sample' | 'greedy'
  temperature?: number
  prior?: PriorProvider
}

export class HeadPolicy implements Policy {
  readonly name: string
  private random: () => number = seededRandom(STREAM)
  /** This episode's decisions, in order; reset() clears them. */
  records: HeadDecisionRecord[] = []
  private acts = 0
  /** This episode's builder (a per-episode one where the protocol's builder keeps a memory). */
  private active: CandidateBuilder

  constructor(
    readonly head: PolicyHead,
    private readonly builder: CandidateBuilder,
    private readonly options: HeadPolicyOptions,
  ) {
    if (head.config.inputDim !== layoutDimension(builder.layout)) {
      throw new Error(`This head takes ${head.config.inputDim} features; ${builder.protocol} candidates have ${layoutDimension(builder.layout)}`)
    }
    this.name = `head-${options.mode}`
    this.active = builder
  }

  reset(episode: { seed: number; question: EnvQuestion }): void {
    this.random = seededRandom((episode.seed ^ Math.floor(episode.seed / 4294967296) ^ STREAM) >>> 0)
    this.records = []
    this.acts = 0
    this.active = this.builder.forEpisode?.() ?? this.builder
  }

  async act(observation: Observation, actions: ActionSpace): Promise<PolicyDecision> {
    const t = this.acts++
    const candidates = this.active.candidates(observation, actions)
    if (candidates.length === 0) return { action: protocolDeclaration(this.builder.protocol).answer }
    const state = this.active.state(observation)
    const rows = candidates.map((c) => encode(this.builder.layout, c.type, c.features, state))
    const prior = this.options.prior ? await this.options.prior(observation, candidates) : null
    const out = this.head.forward(rows, prior ?? undefined, this.options.temperature !== undefined ? { temperature: this.options.temperature } : undefined)
    const chosen = this.options.mode === 'greedy' ? argmax(out.logp) : sampleIndex(out.probs, this.random())
    const logp = out.logp[chosen]!
    this.active.chosen?.(candidates[chosen]!)
    this.records.push({ t, rows, prior, chosen, logp, entropy: out.entropy, type: candidates[chosen]!.type, types: candidates.map((c) => c.type) })
    return { action: candidates[chosen]!.action, logprob: logp, trainer: { index: chosen, candidates: candidates.length, entropy: out.entropy } }
  }
}
