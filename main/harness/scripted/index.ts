import type { Policy } from '../policy'
import { GreedyPolicy } from './greedy'
import { OraclePolicy } from './oracle'
import { RandomPolicy } from './random'

export { GreedyPolicy, lookupValue } from './greedy'
export { RandomPolicy } from './random'
export { OraclePolicy } from './oracle'
export { playEpisode, type PlayedEpisode } from './play'

export const SCRIPTED_POLICY_NAMES = ['greedy', 'random', 'oracle'] as const
export type ScriptedPolicyName = (typeof SCRIPTED_POLICY_NAMES)[number]

/** Environments the scripted policies know how to drive. */
export const SCRIPTED_ENVIRONMENTS = ['graph-menu', 'free-query'] as const

export function createScriptedPolicy(name: string, envName: string): Policy {
  if (!(SCRIPTED_ENVIRONMENTS as readonly string[]).includes(envName)) {
    throw new Error(`Scripted policies drive ${SCRIPTED_ENVIRONMENTS.join(' and ')}, not "${envName}"`)
  }
  const env = envName as (typeof SCRIPTED_ENVIRONMENTS)[number]
  switch (name) {
    case 'greedy':
      return new GreedyPolicy(env)
    case 'random':
      return new RandomPolicy(env)
    case 'oracle':
      return new OraclePolicy(env)
    default:
      throw new Error(`Unknown scripted policy "${name}"; known: ${SCRIPTED_POLICY_NAMES.join(', ')}`)
  }
}
