/**
 * How close Harness-1 episodes on the demo world come to the limits three switches act at (issue 42, claim 4):
 * the curated cap (importance tags decide evictions only in a full set), the budget warnings (60 % of the
 * context) and near-duplicates (dedup). scripted-tools and an untrained head (sampling), seed 3.
 *
 *   SIZE=1 N=40 CFG='{}' npx tsx scripts/explore/h1-limits.ts
 */
import { environmentContext, runEpisode } from '../../main/harness'
import { STATEFUL_DEFAULTS, StatefulEnvironment } from '../../main/harness/stateful'
import { createScriptedPolicy } from '../../main/policy/scripted'
import { createHead } from '../../main/policy/head'
import { candidateBuilder, HeadPolicy, headInputDim } from '../../main/policy/head-policy'
import { loadQuestions } from '../../main/experiments/questions'
import { openDemoWorkspace } from '../../bench/support/corpus'

const demo = await openDemoWorkspace(11, Number(process.env.SIZE ?? 1))
const raw = demo.db.raw
const qs = loadQuestions(raw, { questionSetId: 1, offset: 0, limit: Number(process.env.N ?? 40) })
const env = new StatefulEnvironment(environmentContext(raw), { ...STATEFUL_DEFAULTS, ...(JSON.parse(process.env.CFG ?? '{}') as object) })
for (const who of ['scripted-tools', 'head']) {
  let maxCurated = 0
  let maxFraction = 0
  let duplicates = 0
  let warned = 0
  for (const q of qs) {
    const policy = who === 'head' ? new HeadPolicy(createHead('mlp', { inputDim: headInputDim('harness1-tools'), hidden: 32, seed: 1 }), candidateBuilder('harness1-tools'), { mode: 'sample' }) : createScriptedPolicy('scripted-tools', 'harness1-tools')
    await runEpisode(env, policy, q, 3, { snapshots: false })
    const s = env.snapshot()
    maxCurated = Math.max(maxCurated, s.curated.length)
    maxFraction = Math.max(maxFraction, s.budget.fraction)
    duplicates += s.duplicates.length
    if (s.budget.warning) warned++
  }
  console.log(`${who}: ${qs.length} episodes, max curated ${maxCurated} (cap ${env.config.curatedCap}), max final context fraction ${maxFraction.toFixed(3)}, episodes ending with a warning ${warned}, near-duplicates suppressed ${duplicates}`)
}
await demo.close()
