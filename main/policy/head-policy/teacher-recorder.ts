/**
 * A scripted teacher labels every decision of an episode: the head's candidates are encoded as the head would
 * see them and the teacher's choice is recorded as the target among them, the samples of a supervised warm
 * start (behaviour cloning). The teacher plays its own choices, or (DAgger) a student head plays, sampling
 * from its softmax, and the teacher labels the states the student reaches. A teacher choice the head's
 * candidates do not offer (a free query it would not write) is counted, not recorded (the teacher's action is
 * still played when the teacher plays); a decision with one candidate teaches nothing and is left out.
 */
import { seededRandom } from '../../eval'
import type { Action, ActionSpace, EnvQuestion, Observation, Policy, PolicyDecision } from '../../harness'
import { protocolDeclaration } from '../../harness'
import { sampleIndex, type PolicyHead } from '../head'
import type { Candidate, CandidateBuilder } from './candidate'
import { encode } from './features'
import type { PriorProvider } from './head-policy'

export interface ImitationSample {
  rows: Float64Array[]
  prior: number[] | null
  /** The candidate the teacher chose, and its type. */
  chosen: number
  type: string
}

/** A tool call's arguments compared with their strings trimmed, lower-cased and their spaces collapsed (a query is its words). */
const normalised = (x: unknown): unknown =>
  typeof x === 'string' ? x.trim().toLowerCase().replace(/\s+/g, ' ') : Array.isArray(x) ? x.map(normalised) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, normalised(v)])) : x

export function sameAction(a: Action, b: Action): boolean {
  if (a.kind !== b.kind) return false
  if (a.kind === 'menu' && b.kind === 'menu') return a.id === b.id
  return JSON.stringify(normalised(a)) === JSON.stringify(normalised(b))
}

export interface RecorderOptions {
  prior?: PriorProvider
  /** DAgger: this head plays (sampling at `temperature`) and the teacher only labels. */
  student?: { head: PolicyHead; temperature: number }
}

/** The student's draws: a stream of their own (the head policy's rollouts use another). */
const STREAM = 0x44414747

export class TeacherRecorder implements Policy {
  readonly name: string
  readonly samples: ImitationSample[] = []
  /** Teacher decisions seen, and those whose action no candidate offered. */
  decisions = 0
  unmatched = 0
  private active: CandidateBuilder
  private random: () => number = seededRandom(STREAM)

  constructor(
    private readonly teacher: Policy,
    private readonly builder: CandidateBuilder,
    private readonly options: RecorderOptions = {},
  ) {
    this.name = options.student ? `head labelled by ${teacher.name}` : `head imitating ${teacher.name}`
    this.active = builder
  }

  reset(episode: { seed: number; question: EnvQuestion }): void {
    this.teacher.reset(episode)
    this.active = this.builder.forEpisode?.() ?? this.builder
    this.random = seededRandom((episode.seed ^ STREAM) >>> 0)
  }

  async act(observation: Observation, actions: ActionSpace): Promise<PolicyDecision> {
    const candidates: Candidate[] = this.active.candidates(observation, actions)
    const decision = await this.teacher.act(observation, actions)
    this.decisions++
    const label = candidates.findIndex((c) => sameAction(c.action, decision.action))
    if (label < 0) this.unmatched++
    const student = this.options.student
    const needRows = candidates.length > 1 && (label >= 0 || student)
    const state = needRows ? this.active.state(observation) : null
    const rows = state ? candidates.map((c) => encode(this.builder.layout, c.type, c.features, state)) : []
    const prior = needRows && this.options.prior ? await this.options.prior(observation, candidates) : null
    if (label >= 0 && candidates.length > 1) this.samples.push({ rows, prior, chosen: label, type: candidates[label]!.type })
    if (!student) {
      if (label >= 0) this.active.chosen?.(candidates[label]!)
      return { action: decision.action }
    }
    if (candidates.length === 0) return { action: protocolDeclaration(this.builder.protocol).answer }
    const played = candidates.length === 1 ? 0 : sampleIndex(student.head.forward(rows, prior ?? undefined, { temperature: student.temperature }).probs, this.random())
    this.active.chosen?.(candidates[played]!)
    return { action: candidates[played]!.action }
  }
}
