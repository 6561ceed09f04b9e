/**
 * Know the ceiling: per environment, the share of gold reachable within the budget by any sequence of
 * the environment's own actions (search.ts) beside what the oracle commits, the questions where the
 * oracle falls short of it (the oracle plans through a twin environment with the same search; its
 * one-step rules alone are reported beside it), and why the rest of the gold is out of reach (never surfaced, LOOKUP
 * target filtered, never on the SELECT menu, budget), so environment settings can be tuned against it.
 */
import { createEnvironment, environmentFactory, runEpisode, type EnvContext, type EnvQuestion, type Policy } from '../../harness'
import { createScriptedPolicy } from '../../policy/scripted'
import { oraclePlanner } from './planner'
import { committedUnitCount, DEFAULT_CEILING_OPTIONS, goldUnits, searchCeiling, type CeilingOptions, type UnreachableReason } from './search'

export { oraclePlanner } from './planner'
export { committedUnitCount, goldUnits, searchCeiling, DEFAULT_CEILING_OPTIONS, type CeilingOptions, type CeilingResult, type GoldUnit, type UnreachableReason } from './search'

export interface CeilingQuestionRow {
  questionId: string
  units: number
  reachable: number
  /** Gold units the oracle commits (planned through a twin environment, then its rules). */
  oracle: number
  /** Gold units its one-step rules alone commit. */
  oracleRules: number
  reasons: Partial<Record<UnreachableReason, number>>
  truncated: boolean
}

export interface CeilingRow {
  environment: string
  config: Record<string, unknown>
  questions: number
  units: number
  /** Share of gold units reachable within the budget (best action sequence per question). */
  reachable: number
  /** Share the oracle commits. */
  oracle: number
  /** Share the oracle's one-step rules alone commit (the oracle before it planned). */
  oracleRules: number
  /** Questions whose gold is all reachable / all committed by the oracle. */
  allReachable: number
  allOracle: number
  allRules: number
  /** Unreachable gold units by reason. */
  reasons: Partial<Record<UnreachableReason, number>>
  /** Questions where the oracle commits less than is reachable. */
  oracleShort: string[]
  /** Questions where the one-step rules alone commit less than is reachable. */
  rulesShort: string[]
  truncated: number
  perQuestion: CeilingQuestionRow[]
}

export async function ceilingReport(
  ctx: EnvContext,
  questions: readonly EnvQuestion[],
  environment: string,
  config: Record<string, unknown> = {},
  options: CeilingOptions = DEFAULT_CEILING_OPTIONS,
): Promise<CeilingRow> {
  const env = createEnvironment(environment, ctx, config)
  // The planning oracle's look-ahead runs on a twin, never on the environment its episode is in.
  const planner = oraclePlanner(createEnvironment(environment, ctx, config), ctx, options)
  const protocol = environmentFactory(environment).protocol
  const perQuestion: CeilingQuestionRow[] = []
  for (const [i, q] of questions.entries()) {
    const seed = 100 + i
    const ceiling = await searchCeiling(env, ctx, q, seed, options)
    const units = goldUnits(q)
    const commits = async (policy: Policy) => committedUnitCount(ctx, units, (await runEpisode(env, policy, q, seed, { snapshots: false })).outcome.evidence.sentenceIds ?? [])
    const oracleRules = await commits(createScriptedPolicy('oracle', protocol))
    const oracle = await commits(createScriptedPolicy('oracle', protocol, { planner }))
    const reasons: CeilingQuestionRow['reasons'] = {}
    for (const r of ceiling.reasons.values()) reasons[r] = (reasons[r] ?? 0) + 1
    perQuestion.push({ questionId: q.id, units: units.length, reachable: ceiling.best.length, oracle, oracleRules, reasons, truncated: ceiling.truncated })
  }
  const sum = (f: (r: CeilingQuestionRow) => number) => perQuestion.reduce((s, r) => s + f(r), 0)
  const units = sum((r) => r.units)
  const reasons: CeilingRow['reasons'] = {}
  for (const r of perQuestion) for (const [k, v] of Object.entries(r.reasons)) reasons[k as UnreachableReason] = (reasons[k as UnreachableReason] ?? 0) + v
  return {
    environment,
    config,
    questions: perQuestion.length,
    units,
    reachable: sum((r) => r.reachable) / Math.max(1, units),
    oracle: sum((r) => r.oracle) / Math.max(1, units),
    oracleRules: sum((r) => r.oracleRules) / Math.max(1, units),
    allReachable: perQuestion.filter((r) => r.reachable === r.units).length,
    allOracle: perQuestion.filter((r) => r.oracle === r.units).length,
    allRules: perQuestion.filter((r) => r.oracleRules === r.units).length,
    reasons,
    oracleShort: perQuestion.filter((r) => r.oracle < r.reachable).map((r) => r.questionId),
    rulesShort: perQuestion.filter((r) => r.oracleRules < r.reachable).map((r) => r.questionId),
    truncated: perQuestion.filter((r) => r.truncated).length,
    perQuestion,
  }
}
