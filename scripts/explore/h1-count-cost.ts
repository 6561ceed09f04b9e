/**
 * CPU time of Harness-1 episodes with section-by-section token counting (the environment's joinedCounter on
 * cl100k) against counting each joined rendering (the same tokenizer wrapped so it is not recognised),
 * measured in the same process, alternating, on the demo world: an untrained head sampling (as training rollouts
 * play), at the claims' limits and at the published context.
 *
 *   npx tsx scripts/explore/h1-count-cost.ts
 */
import { environmentContext, runEpisode } from '../../main/harness'
import { CL100K_COUNTER, STATEFUL_DEFAULTS, StatefulEnvironment } from '../../main/harness/stateful'
import { CLAIM_LIMITS } from '../../main/experiments/findings/claims/harness-1'
import { createHead } from '../../main/policy/head'
import { candidateBuilder, HeadPolicy, headInputDim } from '../../main/policy/head-policy'
import { openDemoWorkspace } from '../../bench/support/corpus'

const demo = await openDemoWorkspace(11, 1)
const qs = demo.questions.slice(0, 30)
const plain = { name: CL100K_COUNTER.name, count: (t: string) => CL100K_COUNTER.count(t) }
for (const limits of [CLAIM_LIMITS, {}]) {
  const cpu: Record<string, number[]> = { sections: [], joined: [] }
  for (let round = 0; round < 3; round++) {
    for (const [name, counter] of [['sections', CL100K_COUNTER], ['joined', plain]] as const) {
      const env = new StatefulEnvironment({ ...environmentContext(demo.db.raw), tokenCounter: counter }, { ...STATEFUL_DEFAULTS, ...limits })
      const head = new HeadPolicy(createHead('mlp', { inputDim: headInputDim('harness1-tools'), hidden: 32, seed: 1 }), candidateBuilder('harness1-tools'), { mode: 'sample' })
      const t0 = process.cpuUsage()
      for (const q of qs) await runEpisode(env, head, q, 1, { snapshots: false })
      const d = process.cpuUsage(t0)
      cpu[name]!.push((d.user + d.system) / 1e6)
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  console.log(`context ${JSON.stringify(limits)}: 30 head episodes x 3 rounds: section counts ${median(cpu.sections!).toFixed(2)} s CPU, joined counts ${median(cpu.joined!).toFixed(2)} s CPU (median), ratio ${(median(cpu.joined!) / median(cpu.sections!)).toFixed(2)}x`)
}
await demo.close()
