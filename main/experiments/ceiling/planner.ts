/**
 * The oracle's look-ahead: play its one-step rules on a twin of the environment, and when they leave
 * reachable gold uncommitted, search the twin's transitions (search.ts) for a sequence that commits
 * more. The oracle then follows that sequence, so it is never below the ceiling the search reports.
 */
import { environmentFactory, runEpisode, type Action, type Environment, type EnvContext, type EnvQuestion } from '../../harness'
import { createScriptedPolicy, type OraclePlanner } from '../../policy/scripted'
import { committedUnitCount, DEFAULT_CEILING_OPTIONS, goldUnits, searchCeiling, type CeilingOptions } from './search'

/** `twin` must be built with the same environment name, context and settings as the episodes' own, and used by nothing else. */
export function oraclePlanner(twin: Environment, ctx: EnvContext, options: CeilingOptions = DEFAULT_CEILING_OPTIONS): OraclePlanner {
  const protocol = environmentFactory(twin.name).protocol
  return {
    async plan(question: EnvQuestion, seed: number): Promise<Action[] | null> {
      const units = goldUnits(question)
      const resolvable = units.filter((u) => u.id !== null).length
      const rules = await runEpisode(twin, createScriptedPolicy('oracle', protocol), question, seed, { snapshots: false })
      const byRules = committedUnitCount(ctx, units, rules.outcome.evidence.sentenceIds ?? [])
      if (byRules >= resolvable) return null
      const found = await searchCeiling(twin, ctx, question, seed, { ...options, floor: byRules })
      return found.best.length > byRules ? found.bestPath : null
    },
  }
}
