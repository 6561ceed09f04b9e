/**
 * Can the head's features tell a gold sentence from the others on the menu? (issue 42). Along scripted greedy's
 * episodes, every decision whose menu offers a gold SELECT becomes a sample: the SELECT candidates encoded as the
 * head sees them (the graph-menu layout), labelled with the best-ranked gold one. The product's heads are fitted to
 * those labels by cross-entropy on the train questions (the warm start's own `imitate`), and the share of decisions
 * whose top-scored SELECT is gold is compared, on train and held-out, with the menu's own ranking (what greedy takes).
 * A fitted head far above the ranking means the features carry the gold; level with it means RL can only gain on
 * when to stop, not on which sentence to take. Seeded; no timings.
 *
 *   GOLD_SUITES=hotpotqa,demo GOLD_ARCHS=linear:0,mlp:32 npx tsx bench/head-gold-choice.ts
 *
 * Env: GOLD_SUITES, GOLD_ARCHS, GOLD_SEED (1), GOLD_TRAIN (train questions, 0: the whole split).
 * Lines: gold-choice: <suite> <arch> on <n> train questions: train <a> held-out <b> (menu rank: train <c> held-out <d>; <k> / <m> decisions)
 */
import { createEnvironment, environmentContext, environmentFactory, runEpisode, type ActionSpace, type Observation, type Policy } from '../main/harness'
import { loadQuestions } from '../main/experiments/questions'
import { scriptedPolicyFor } from '../main/experiments/scripted-policy'
import { createHead, type PolicyHead } from '../main/policy/head'
import { candidateBuilder, encode, headInputDim, type ImitationSample } from '../main/policy/head-policy'
import { imitate } from '../main/rl/trainer'
import { fmt } from './support/rl-figures'
import { eachSuite, type RlSuite } from './support/rl-suites'

const SUITES = (process.env.GOLD_SUITES ?? 'hotpotqa,demo').split(',')
const ARCHS = (process.env.GOLD_ARCHS ?? 'linear:0,mlp:32').split(',').map((a) => a.split(':') as ['linear' | 'mlp', string])
const SEED = Number(process.env.GOLD_SEED ?? 1)
/** Train questions used (the first N of the split; 0: all): the same count on both suites tells features from data size. */
const TRAIN = Number(process.env.GOLD_TRAIN ?? 0)
const ENV = 'graph-menu'
const protocol = environmentFactory(ENV).protocol
const builder = candidateBuilder(protocol)

/** A decision's SELECT rows, which of them are gold, and the menu rank of each. */
interface Choice extends ImitationSample {
  gold: boolean[]
  rank: number[]
}

/** Greedy plays `questions`; every decision with a gold SELECT on its menu is kept. */
async function choices(s: RlSuite, questions: ReturnType<typeof loadQuestions>): Promise<Choice[]> {
  const greedy = scriptedPolicyFor('greedy', ENV, s.raw)!
  const out: Choice[] = []
  let gold = new Set<number>()
  const watcher: Policy = {
    name: 'gold-choice',
    reset(episode) {
      greedy.reset(episode)
      gold = new Set(episode.question.gold?.sentenceIds ?? [])
    },
    async act(observation: Observation, actions: ActionSpace) {
      if (actions.kind === 'menu') {
        const sentence = new Map(actions.items.map((i) => [i.id, i.target?.sentence?.id]))
        const state = builder.state(observation)
        const selects = builder.candidates(observation, actions).filter((c) => c.type === 'SELECT' && c.action.kind === 'menu')
        const isGold = selects.map((c) => gold.has(sentence.get(c.action.kind === 'menu' ? c.action.id : '') ?? -1))
        if (isGold.some(Boolean)) {
          const rank = selects.map((c) => c.features.rank ?? Infinity)
          let chosen = -1
          isGold.forEach((g, i) => (g && (chosen < 0 || rank[i]! < rank[chosen]!) ? (chosen = i) : 0))
          out.push({ rows: selects.map((c) => encode(builder.layout, c.type, c.features, state)), prior: null, chosen, type: 'SELECT', gold: isGold, rank })
        }
      }
      return greedy.act(observation, actions)
    },
  }
  const env = createEnvironment(ENV, environmentContext(s.raw))
  for (const q of questions) await runEpisode(env, watcher, q, (SEED * 1_000_003 + q.rowId) >>> 0, { snapshots: false })
  return out
}

/** Share of choices whose best-scored SELECT is gold. */
const goldRate = (xs: Choice[], score: (x: Choice) => ArrayLike<number>): number =>
  xs.filter((x) => {
    const s = score(x)
    let best = 0
    for (let i = 1; i < s.length; i++) if (s[i]! > s[best]!) best = i
    return x.gold[best]
  }).length / Math.max(1, xs.length)
const byRank = (x: Choice) => x.rank.map((r) => -r)
const byHead = (head: PolicyHead) => (x: Choice) => head.forward(x.rows).logp

await eachSuite(SUITES, async (s, lines) => {
  const train = await choices(s, loadQuestions(s.raw, TRAIN > 0 ? { ...s.train, limit: Math.min(TRAIN, s.train.limit) } : s.train))
  const held = await choices(s, loadQuestions(s.raw, s.heldOut))
  const rank = `menu rank: train ${fmt(goldRate(train, byRank))} held-out ${fmt(goldRate(held, byRank))}; ${train.length} / ${held.length} decisions`
  for (const [arch, hidden] of ARCHS) {
    const head = createHead(arch, { inputDim: headInputDim(protocol), hidden: Math.max(1, Number(hidden)), seed: SEED })
    imitate(head, train, { epochs: 60, learningRate: 0.01, batchSize: 32, gradClip: 1, temperature: 1, seed: SEED })
    const line = `gold-choice: ${s.name} ${arch}:${hidden} on ${TRAIN > 0 ? Math.min(TRAIN, s.train.limit) : s.train.limit} train questions: train ${fmt(goldRate(train, byHead(head)))} held-out ${fmt(goldRate(held, byHead(head)))} (${rank})`
    console.log(line)
    lines.push(line)
  }
})
