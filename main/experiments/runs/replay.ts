/**
 * Rollouts are stored compactly (actions, log-probabilities, credit, advantages); the full steps —
 * observations, menus, previews, snapshots — are rebuilt on demand by replaying the stored actions
 * through the same environment and config. Environments are deterministic given the question, the seed
 * and the actions, so the replay is the rollout as it happened, unless the corpus changed since: then the
 * replay says so.
 */
import type SQLite from 'better-sqlite3'
import { createEnvironment, environmentFactory, protocolDeclaration, runEpisode, type Action, type Policy, type PolicyDecision, type Trajectory, environmentContext } from '../../harness'
import { decodeSteps, type CompactStep } from './rollout-codec'
import { episodeColumns } from '../../db/episode-columns'

/** Plays back the stored actions with their recorded decisions (and the credit each step received). */
class StoredActions implements Policy {
  readonly name = 'replay'
  private next = 0
  constructor(private readonly steps: CompactStep[], private readonly answer: Action) {}
  reset(): void {
    this.next = 0
  }
  async act(): Promise<PolicyDecision> {
    const s = this.steps[this.next++]
    // Past the stored steps (a changed corpus made the episode longer): stop.
    if (!s) return { action: this.answer }
    return {
      action: s.action,
      ...(s.logprob !== null ? { logprob: s.logprob } : {}),
      trainer: { index: s.index, candidates: s.candidates, credit: s.credit, advantage: s.advantage },
    }
  }
}

export interface ReplayedRollout {
  trajectory: Trajectory
  /** False when the replay did not end with the stored evidence (the corpus or the environment changed since). */
  faithful: boolean
}

export async function replayRollout(
  raw: SQLite.Database,
  stored: { environment: string; envConfig: Record<string, unknown>; questionId: number | null; question: string; seed: number; gold: { answers: string[]; supportingFacts: { title: string; sentence: number }[]; supportingDocs: string[] }; outcomeJson: string; steps: Uint8Array },
  /** observations: keep each step's structured observation (credit reads the state from it). */
  options: { observations?: boolean } = {},
): Promise<ReplayedRollout> {
  const steps = decodeSteps(stored.steps)
  const env = createEnvironment(stored.environment, environmentContext(raw), stored.envConfig)
  const question = { id: String(stored.questionId ?? 'replay'), question: stored.question, ...stored.gold }
  const trajectory = await runEpisode(env, new StoredActions(steps, protocolDeclaration(environmentFactory(stored.environment).protocol).answer), question, stored.seed, { previews: true, observations: options.observations ?? false, maxSteps: steps.length })
  const before = episodeColumns.outcome.read(stored.outcomeJson)
  const faithful = trajectory.steps.length === steps.length && JSON.stringify(trajectory.outcome.evidence) === JSON.stringify(before.evidence)
  return { trajectory, faithful }
}
