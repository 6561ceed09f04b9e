/**
 * Scripted policies (no model), registered by name: greedy, random and oracle speak the sentence
 * substrate (menu and free query), search-first free query only, scripted-tools speaks Harness-1's tools (main/policy/protocols.ts).
 */
import type { Policy } from '../../harness'
import type { Protocol } from '../../harness'
import { GreedyPolicy } from './harness-g/greedy'
import { OraclePolicy, type OraclePlanner } from './harness-g/oracle'
import { RandomPolicy } from './harness-g/random'
import { scriptedProtocols } from '../protocols'
import { ScriptedToolPolicy } from './harness-1/tool-policy'

export { GreedyPolicy, lookupValue } from './harness-g/greedy'
export { RandomPolicy } from './harness-g/random'
export { OraclePolicy, type OraclePlanner } from './harness-g/oracle'
export { ScriptedToolPolicy, type ScriptedToolOptions } from './harness-1/tool-policy'
export { firstHopQueries, namesIn, readQuestion, type QuestionReading } from './harness-1/questions'

export interface ScriptedPolicyDeclaration {
  name: string
  description: string
  /** The protocols it drives, as the policy side's table (main/policy/protocols.ts) lists them. */
  protocols: readonly Protocol[]
  create(protocol: Protocol, options: ScriptedPolicyOptions): Policy
}

export interface ScriptedPolicyOptions {
  /** The oracle's look-ahead through a twin environment; the other policies ignore it. */
  planner?: OraclePlanner
}

/** Which protocols each drives is the policy side's table's (main/policy/protocols.ts), not theirs. */
const DECLARATIONS = {
  greedy: { description: 'Commits the sentence covering the most unmet question terms; otherwise the most promising LOOKUP or search.', create: (p) => new GreedyPolicy(p) },
  'search-first': {
    description: 'Greedy after a first search with the question, whatever is already visible: a free-query teacher whose demonstrations show a model a query to write.',
    create: (p) => new GreedyPolicy(p, { searchFirst: true }),
  },
  random: { description: 'Uniform over what is available (seeded by the episode seed).', create: (p) => new RandomPolicy(p) },
  oracle: { description: 'Follows the gold: an upper bound on what the environment lets a policy reach, not a baseline.', create: (p, o) => new OraclePolicy(p, o.planner) },
  'scripted-tools': { description: 'Harness-1 tool script: fan-out search, curate by tag, verify, end.', create: () => new ScriptedToolPolicy() },
} satisfies Record<string, Pick<ScriptedPolicyDeclaration, 'description' | 'create'>>

export type ScriptedPolicyName = keyof typeof DECLARATIONS

const declarations: ScriptedPolicyDeclaration[] = Object.entries(DECLARATIONS).map(([name, d]) => ({ name, ...d, protocols: scriptedProtocols(name) }))

export function scriptedPolicies(): readonly ScriptedPolicyDeclaration[] {
  return declarations
}

export const SCRIPTED_POLICY_NAMES = declarations.map((d) => d.name)

/** A scripted policy for an environment speaking `protocol`; the error names the policies that do speak it. */
export function createScriptedPolicy(name: string, protocol: Protocol, options: ScriptedPolicyOptions = {}): Policy {
  const d = declarations.find((x) => x.name === name)
  if (!d) throw new Error(`Unknown scripted policy "${name}"; known: ${SCRIPTED_POLICY_NAMES.join(', ')}`)
  if (!d.protocols.includes(protocol)) {
    const fitting = declarations.filter((x) => x.protocols.includes(protocol)).map((x) => x.name)
    throw new Error(`${name} drives ${d.protocols.join(' and ')} environments, not ${protocol}; use ${fitting.join(', ') || 'an LLM policy'} here`)
  }
  return d.create(protocol, options)
}
