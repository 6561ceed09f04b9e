/**
 * Short RL runs on this machine: seconds per training step (G rollouts × Q questions) and rollouts per
 * second per environment beside the greedy scripted policy's episodes per second measured in the same run,
 * then held-out figures of the head before and after training for each variant, with paired bootstrap CIs,
 * against the greedy policy and the untrained head's argmax.
 *
 * Env: RL_STEPS (default 20), RL_SEEDS (default 1), RL_DEMO_SIZE (default 6: over 500 questions).
 * Ends with machine-readable lines:
 *   learn: <environment> <credit> <metric> before <x> after <y> diff <d> CI [<lo>, <hi>]
 *   step: <environment> <seconds> s/step <r> rollouts/s greedy <g> episodes/s
 */
import { comparePaired } from '../main/eval'
import { createEnvironment, environmentFactory, runEpisode } from '../main/harness'
import { runTraining, type HeldOutResult } from '../main/experiments/training'
import { EvidenceResolver } from '../main/experiments/evidence'
import { loadQuestions } from '../main/experiments/questions'
import { scoreEpisode } from '../main/experiments/score'
import { LexicalAnswerer } from '../main/policy/answerer/lexical-answerer'
import { createScriptedPolicy } from '../main/policy/scripted'
import { createRetriever } from '../main/retrieval'
import { openDemoWorkspace } from '../test/helpers/corpus'

const STEPS = Number(process.env.RL_STEPS ?? 20)
const SEEDS = Number(process.env.RL_SEEDS ?? 1)
const SIZE = Number(process.env.RL_DEMO_SIZE ?? 6)
const answerer = new LexicalAnswerer()
const lines: string[] = []

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const rows = (r: HeldOutResult) => Object.entries(r.perQuestion).map(([questionId, metrics]) => ({ questionId, variant: null, metrics }))

async function greedyHeldOut(raw: Parameters<typeof createRetriever>[0], environment: string, setId: number, offset: number, limit: number): Promise<{ result: HeldOutResult; episodesPerSecond: number }> {
  const env = createEnvironment(environment, { raw, retriever: createRetriever(raw) })
  const policy = createScriptedPolicy('greedy', environmentFactory(environment).protocol)
  const evidence = new EvidenceResolver(raw)
  const perQuestion: HeldOutResult['perQuestion'] = {}
  const qs = loadQuestions(raw, setId, offset, limit)
  const t0 = performance.now()
  for (const q of qs) {
    const t = await runEpisode(env, policy, q, 1, { snapshots: false, previews: true, finish: async (_e, o) => {
      const answer = o.answer ?? (await answerer.answer(q.question, evidence.evidenceTexts(o)))
      const m = scoreEpisode(q, o, answer, evidence)
      m['evidence.count'] = (o.evidence.sentenceIds ?? []).length
      if (m['sp.recall'] !== undefined) m['sp.allGold'] = m['sp.recall'] === 1 ? 1 : 0
      return { answer, metrics: m }
    } })
    perQuestion[String(q.rowId)] = t.metrics
  }
  return { result: { aggregates: {} as HeldOutResult['aggregates'], perQuestion }, episodesPerSecond: qs.length / ((performance.now() - t0) / 1000) }
}

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? 'NaN' : x.toFixed(4))

async function suite(label: string, raw: Parameters<typeof createRetriever>[0], setId: number, total: number, heldOutSize: number) {
  const heldOut = { questionSetId: setId, offset: total - heldOutSize, limit: heldOutSize }
  const train = { questionSetId: setId, offset: 0, limit: total - heldOutSize }
  console.log(`\n== ${label}: ${train.limit} train / ${heldOut.limit} held-out questions (held-out = the last ${heldOut.limit} by id), ${STEPS} steps, ${SEEDS} seed(s)`)
  const variants = [
    { environment: 'graph-menu', credit: 'snc', lambda: 0.5 },
    { environment: 'graph-menu', credit: 'outcome', lambda: 0 },
    { environment: 'free-query', credit: 'outcome', lambda: 0 },
  ]
  for (const v of variants) {
    const greedy = await greedyHeldOut(raw, v.environment, setId, heldOut.offset, heldOut.limit)
    for (let seed = 1; seed <= SEEDS; seed++) {
      const seconds: number[] = []
      const r = await runTraining(raw, {
        environment: v.environment, steps: STEPS, groupSize: 8, questionsPerStep: 16, evalInterval: Math.max(STEPS, 1), seed,
        credit: { scheme: v.credit, lambda: v.lambda }, train, heldOut,
      }, { answerer, appVersion: 'bench', jobId: null, progress: () => {}, throwIfCancelled: () => {}, onStep: (_s, d) => seconds.push(d.seconds as number) })
      const sPerStep = median(seconds)
      const rolloutsPerSecond = (8 * 16) / sPerStep
      if (seed === 1 && v.credit !== 'snc' || (seed === 1 && v.environment === 'graph-menu' && v.credit === 'snc')) {
        lines.push(`step: ${v.environment}${v.credit === 'snc' ? '+snc' : ''} ${sPerStep.toFixed(2)} s/step ${rolloutsPerSecond.toFixed(1)} rollouts/s greedy ${greedy.episodesPerSecond.toFixed(1)} episodes/s`)
      }
      const before = rows(r.before!)
      const after = rows(r.after!)
      for (const metric of ['sp.f1', 'sp.recall', 'sp.precision', 'sp.allGold', 'evidence.count']) {
        const c = comparePaired(before, after, metric, { seed })
        const g = comparePaired(rows(greedy.result), after, metric, { seed })
        console.log(`${v.environment} ${v.credit} seed ${seed} ${metric}: untrained argmax ${fmt(c.baselineMean)} -> trained ${fmt(c.candidateMean)} (diff ${fmt(c.meanDifference)} [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]); greedy ${fmt(g.baselineMean)}, trained - greedy ${fmt(g.meanDifference)} [${fmt(g.ci?.lower)}, ${fmt(g.ci?.upper)}]`)
        if (metric === 'sp.f1') {
          lines.push(`learn: ${v.environment} ${v.credit} sp.f1 before ${fmt(c.baselineMean)} after ${fmt(c.candidateMean)} diff ${fmt(c.meanDifference)} CI [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]`)
          lines.push(`learn: ${v.environment} ${v.credit} sp.f1-vs-greedy before ${fmt(g.baselineMean)} after ${fmt(g.candidateMean)} diff ${fmt(g.meanDifference)} CI [${fmt(g.ci?.lower)}, ${fmt(g.ci?.upper)}]`)
        }
      }
    }
  }
}

const demo = await openDemoWorkspace(11, SIZE)
const n = Number(demo.db.raw.prepare('select count(*) from questions').pluck().get())
await suite(`demo world size ${SIZE}`, demo.db.raw, 1, n, Math.min(128, Math.floor(n / 4)))
await demo.close()
console.log('')
for (const l of lines) console.log(l)
