/**
 * Episodes a trainer plays can be kept like any other run (off by default, a sample, or all): one
 * evaluation-kind run per environment and config, so the Runs and Ablations pages compare them with
 * in-app evaluations. Whether an episode is kept is decided when it is created (its snapshots are only
 * taken then) from its id, so the decision is reproducible.
 */
import { createHash } from 'node:crypto'
import type SQLite from 'better-sqlite3'
import type { Trajectory } from '../harness'
import { corpusSignature } from '../experiments/questions'
import { RunStore } from '../experiments/runs/store'

export type StoreMode = 'off' | 'sampled' | 'all'

export interface EpisodeStorePolicy {
  mode: StoreMode
  /** Share of episodes kept when mode is 'sampled' (0..1, default 0.1). */
  rate?: number
}

export interface StoredRunConfig {
  environment: string
  envConfig: Record<string, unknown>
  reward: unknown
  credit: string
  answerer: { name: string; lexical: boolean }
}

export class EpisodeKeeper {
  private readonly runs = new Map<string, number>()
  private readonly counts = new Map<number, number>()
  private readonly store: RunStore

  constructor(private readonly raw: SQLite.Database, private readonly policy: EpisodeStorePolicy, private readonly appVersion: string) {
    const rate = policy.rate ?? 0.1
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`store rate must be within 0..1, got ${rate}`)
    this.store = new RunStore(raw)
  }

  /** Whether the episode with this id is kept. */
  keeps(episodeId: string): boolean {
    if (this.policy.mode === 'off') return false
    if (this.policy.mode === 'all') return true
    const u = createHash('sha256').update(episodeId).digest().readUInt32BE(0) / 2 ** 32
    return u < (this.policy.rate ?? 0.1)
  }

  /**
   * Stores the finished episode under its environment-and-config run; returns the run id, or null when
   * that run already holds an episode of this question with this seed (a run keeps one per question and
   * seed, as evaluations do: give each rollout of a group its own seed to keep them all).
   */
  save(config: StoredRunConfig, questionRowId: number, trajectory: Trajectory): number | null {
    const key = JSON.stringify([config.environment, config.envConfig, config.reward, config.credit])
    let runId = this.runs.get(key)
    if (runId === undefined) {
      runId = this.store.createRun({
        kind: 'eval',
        name: `env-server ${config.environment}`,
        config: { kind: 'env-server', ...config, policy: { kind: 'external', name: 'external trainer (env-server)' } },
        seed: 0,
        appVersion: this.appVersion,
        corpusSignature: corpusSignature(this.raw),
        jobId: null,
      })
      this.runs.set(key, runId)
    }
    try {
      this.store.saveEpisode(runId, questionRowId, trajectory)
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null
      throw err
    }
    this.counts.set(runId, (this.counts.get(runId) ?? 0) + 1)
    return runId
  }

  /** Marks the server's runs done (called when the server stops). */
  close(): void {
    for (const runId of this.runs.values()) this.store.finishRun(runId, 'done', { episodes: this.counts.get(runId) ?? 0, source: 'env-server' })
    this.runs.clear()
  }
}
