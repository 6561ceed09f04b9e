import { createEnvironment, environmentContext } from '../../main/harness'
import { evaluatePolicy } from '../../main/experiments/training/held-out'
import { EvidenceResolver } from '../../main/experiments/metrics/evidence'
import { loadQuestions } from '../../main/experiments/questions'
import { scriptedPolicyFor } from '../../main/experiments/scripted-policy'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { demoSuite, hotpotSuite } from '../../bench/support/rl-suites'
const answerer = new LexicalAnswerer()
for (const open of [() => demoSuite(6), () => hotpotSuite()]) {
  const s = await open()
  if (!s) continue
  const env = createEnvironment('graph-menu', environmentContext(s.raw))
  const ev = new EvidenceResolver(s.raw)
  for (const split of ['train', 'heldOut'] as const) {
    const qs = loadQuestions(s.raw, s[split])
    for (const name of ['greedy', 'oracle']) {
      const t0 = performance.now()
      const r = await evaluatePolicy(env, scriptedPolicyFor(name, 'graph-menu', s.raw), qs, answerer, ev, 1)
      const m = (k: string) => r.aggregates[k]?.mean?.toFixed(4)
      console.log(`${s.name} ${split} (${qs.length}) ${name}: sp.f1 ${m('sp.f1')} recall ${m('sp.recall')} precision ${m('sp.precision')} evidence ${m('evidence.count')} ${((performance.now()-t0)/1000).toFixed(1)} s`)
    }
  }
  await s.close()
}
