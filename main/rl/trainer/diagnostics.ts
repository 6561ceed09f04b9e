/** Per-step training diagnostics (README, "Environments, policies and evaluation", Training), computed from a batch's rollout groups. */
import { zeroAdvantageStats } from '../estimators'

export interface RolloutSummary {
  reward: number
  components: Record<string, number>
  correct: boolean
  /** The accumulated evidence (committed sentence or curated chunk ids): rollouts with the same set are one retrieval-equivalence class. */
  evidence: readonly number[]
  /** Free query: the search strings written. */
  queries: readonly string[]
  /** Action type (menu item type or tool name) of every valid step. */
  actions: readonly string[]
  turns: number
}

export interface StepDiagnostics {
  reward: number
  components: Record<string, number>
  advantageMean: number
  advantageStd: number
  zeroAdvantageRate: number
  allCorrectRate: number
  allWrongRate: number
  /** Mean number of retrieval-equivalence classes per group (N_eq). */
  equivalenceClasses: number
  /** Share of groups spanning more than one class (D_ret). */
  spanningGroups: number
  /** Mean share of distinct query strings among a group's searches (D_query); null without searches. */
  queryDiversity: number | null
  /** Share of each action type over all valid steps. */
  actionMix: Record<string, number>
  turns: number
  evidence: number
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)

export function stepDiagnostics(groups: readonly (readonly RolloutSummary[])[], advantages: readonly number[]): StepDiagnostics {
  const all = groups.flat()
  const components: Record<string, number> = {}
  for (const r of all) for (const [k, v] of Object.entries(r.components)) components[k] = (components[k] ?? 0) + v / all.length
  const z = zeroAdvantageStats(groups.map((g) => g.map((r) => r.reward)), { correctFlags: groups.map((g) => g.map((r) => r.correct)) })
  const classes = groups.map((g) => new Set(g.map((r) => [...r.evidence].sort((a, b) => a - b).join(','))).size)
  const diversities = groups.map((g) => g.flatMap((r) => r.queries)).filter((qs) => qs.length > 0).map((qs) => new Set(qs.map((q) => q.toLowerCase().trim())).size / qs.length)
  const actions = all.flatMap((r) => r.actions)
  const actionMix: Record<string, number> = {}
  for (const a of actions) actionMix[a] = (actionMix[a] ?? 0) + 1 / actions.length
  const advMean = mean(advantages)
  return {
    reward: mean(all.map((r) => r.reward)),
    components,
    advantageMean: advMean,
    advantageStd: Math.sqrt(mean(advantages.map((a) => (a - advMean) ** 2))),
    zeroAdvantageRate: z.rate,
    allCorrectRate: z.allCorrectRate,
    allWrongRate: z.allWrongRate,
    equivalenceClasses: mean(classes),
    spanningGroups: classes.length ? classes.filter((c) => c > 1).length / classes.length : 0,
    queryDiversity: diversities.length ? mean(diversities) : null,
    actionMix,
    turns: mean(all.map((r) => r.turns)),
    evidence: mean(all.map((r) => r.evidence.length)),
  }
}
