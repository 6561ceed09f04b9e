/**
 * Scripted policies by name. They need no training run, so the training room (warm starts, the GGUF
 * learner's teacher) takes them from here rather than from factories.ts, which sits above it.
 */
import type SQLite from 'better-sqlite3'
import { createEnvironment, environmentContext, environmentFactory, type EnvQuestion, type Policy } from '../harness'
import { createScriptedPolicy, type OraclePlanner } from '../policy/scripted'
import { oraclePlanner } from './ceiling'

/** A scripted policy for `environment`; given the database, the oracle plans through a twin environment built with `envConfig`. */
export function scriptedPolicyFor(name: string, environment: string, raw?: SQLite.Database, envConfig: Record<string, unknown> = {}): Policy {
  const planner = name === 'oracle' && raw ? lazyPlanner(() => {
        const ctx = environmentContext(raw)
        return oraclePlanner(createEnvironment(environment, ctx, envConfig), ctx, EVAL_PLANNER)
      }) : undefined
  return createScriptedPolicy(name, environmentFactory(environment).protocol, { planner })
}

/**
 * The oracle's look-ahead budget in evaluation runs: where some gold is out of reach the search runs
 * its whole budget on every such question, so runs take a smaller one than bench:ceiling's 3,000 steps
 * (the demo world's longest planned path, four LOOKUPs, is found within 1,500).
 */
const EVAL_PLANNER = { maxSteps: 500 }

/** A planner whose twin environment (and its retriever) is built at the first episode, not when the policy is named. */
function lazyPlanner(build: () => OraclePlanner): OraclePlanner {
  let planner: OraclePlanner | undefined
  return { plan: (question: EnvQuestion, seed: number) => (planner ??= build()).plan(question, seed) }
}
