import { PolicyError } from '../../llm/errors'

/** Sampling settings of a run. The seed is the run's; each episode and step derive their own from it. */
export interface SamplingSettings {
  /** 0 (default) is greedy. */
  temperature?: number
  /** 0 (default) keeps the whole vocabulary. */
  topK?: number
  /** 1 (default) keeps the whole distribution. */
  topP?: number
  /** 0 (default) keeps every token. */
  minP?: number
  /** Run seed (default 0), mixed with each episode's seed from reset(). */
  seed?: number
}

export type ResolvedSampling = Required<SamplingSettings>

export function resolveSampling(settings: SamplingSettings = {}): ResolvedSampling {
  const s = { temperature: 0, topK: 0, topP: 1, minP: 0, seed: 0, ...settings }
  const bad = (what: string): never => {
    throw new PolicyError('invalid-input', `sampling: ${what}`)
  }
  if (!Number.isFinite(s.temperature) || s.temperature < 0) bad(`temperature must be >= 0, got ${s.temperature}`)
  if (!Number.isInteger(s.topK) || s.topK < 0) bad(`topK must be a non-negative integer, got ${s.topK}`)
  if (!Number.isFinite(s.topP) || s.topP <= 0 || s.topP > 1) bad(`topP must be in (0, 1], got ${s.topP}`)
  if (!Number.isFinite(s.minP) || s.minP < 0 || s.minP > 1) bad(`minP must be in [0, 1], got ${s.minP}`)
  if (!Number.isInteger(s.seed)) bad(`seed must be an integer, got ${s.seed}`)
  return s
}

/**
 * A 31-bit seed from a list of integers (a murmur3-style finaliser over each). llama.cpp's sampler
 * takes a uint32; keeping below 2^31 keeps it an ordinary positive number everywhere.
 */
export function mixSeeds(...parts: number[]): number {
  let h = 0x9e3779b9
  for (const part of parts) {
    let k = Math.trunc(part) | 0
    k = Math.imul(k ^ (k >>> 16), 0x85ebca6b)
    k = Math.imul(k ^ (k >>> 13), 0xc2b2ae35)
    h = Math.imul(h ^ k ^ (k >>> 16), 0x27d4eb2f) + 0x165667b1
    // Fold in the high half of seeds above 2^32 so nearby large seeds stay distinct.
    h ^= Math.trunc(part / 2 ** 32) | 0
  }
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d)
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39)
  return (h ^ (h >>> 15)) >>> 1
}

/**
 * Seeds for one policy: reset() starts an episode from (run seed, episode seed) and every act()
 * takes the next step's seed, so a rollout replays exactly given the same run and episode seeds,
 * whatever else ran concurrently.
 */
export class EpisodeSeeds {
  private episode: number | null = null
  private step = 0

  constructor(private readonly runSeed: number) {}

  reset(episodeSeed: number): void {
    this.episode = mixSeeds(this.runSeed, episodeSeed)
    this.step = 0
  }

  /** The seed for the next step; throws when no episode has started. */
  next(policyName: string): { seed: number; step: number } {
    if (this.episode === null) throw new PolicyError('invalid-input', `${policyName}: act() before reset(): call reset() at the start of every episode`)
    const step = this.step++
    return { seed: mixSeeds(this.episode, step), step }
  }
}
