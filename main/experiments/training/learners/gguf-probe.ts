/**
 * The GGUF learner's KL probe: a fixed set of the base model's held-out decision prompts on which the
 * trainer measures KL(policy || base) (the distribution of each one's first reply token). A new run takes
 * them from its first held-out pass (which plays the base weights) and keeps them in the run's probe.json;
 * a resumed run reads that file, or plays the base model on the held-out split again, so it measures on
 * the same prompts as the uninterrupted run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { Trajectory } from '../../../harness'
import { ProbeItem } from '../../../llm/training'
import { jsonColumn } from '../../../db/json-column'
import type { LlmDecision } from '../../../policy/llm-policy'
import type { TokenDecision } from '../../../rl/trainer'

/** Decision prompts in the KL probe (the distribution of each one's first reply token); packed, they share the system prompt. */
const PROBE_PROMPTS = 32

/** The token ids of an episode's decisions (recorded by a GGUF policy that records tokens), per episode step. */
export const decisionsOf = (t: Trajectory): TokenDecision[] =>
  t.steps.flatMap((s, i) => {
    const ids = (s.decision as Partial<LlmDecision>).tokenIds
    return ids ? [{ t: i, prompt: ids.prompt, chosen: ids.chosen }] : []
  })

const probeOf = (trajectories: Trajectory[]): ProbeItem[] =>
  trajectories
    .flatMap(decisionsOf)
    .slice(0, PROBE_PROMPTS)
    .map((d) => ({ tokens: d.prompt, positions: [d.prompt.length - 1] }))

export class KlProbe {
  /** The probe's prompts (empty without a KL guard, and until a new run's first held-out pass ended). */
  items: ProbeItem[] = []
  /** A new run's first held-out pass, while it plays. */
  private collecting: Trajectory[] | null = null
  private readonly file: string

  constructor(private readonly runDir: string) {
    this.file = join(runDir, 'probe.json')
  }

  /** A new run: the next held-out pass (the first, on the base weights) becomes the probe. */
  collect(): void {
    this.collecting = []
  }

  /** A resumed run: the probe from probe.json, or from the held-out episodes `playBase` plays on the base weights. */
  async restore(playBase: () => Promise<Trajectory[]>): Promise<void> {
    if (existsSync(this.file)) this.items = jsonColumn(this.file, z.array(ProbeItem)).read(readFileSync(this.file, 'utf8'))
    else this.items = probeOf(await playBase())
  }

  /** Sees a held-out episode. */
  observe(t: Trajectory): void {
    this.collecting?.push(t)
  }

  /** After a held-out pass: the collected pass's prompts become the run's fixed probe, kept in probe.json. */
  settle(): void {
    if (!this.collecting) return
    this.items = probeOf(this.collecting)
    this.collecting = null
    mkdirSync(this.runDir, { recursive: true })
    writeFileSync(this.file, JSON.stringify(this.items))
  }
}
