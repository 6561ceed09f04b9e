/**
 * Scripted policies (no model), registered by name with the protocols they drive: greedy, random and
 * oracle speak the sentence substrate (menu and free query), scripted-tools speaks Harness-1's tools.
 */
import type { Policy } from '../../harness'
import type { Protocol } from '../../harness'
import { GreedyPolicy } from './harness-g/greedy'
import { OraclePolicy, type OraclePlanner } from './harness-g/oracle'
import { RandomPolicy } from './harness-g/random'
import type { SentenceProtocol } from './harness-g/observation'
import { ScriptedToolPolicy } from './harness-1/tool-policy'

export { GreedyPolicy, lookupValue } from './harness-g/greedy'
export { RandomPolicy } from './harness-g/random'
export { OraclePolicy, type OraclePlanner } from './harness-g/oracle'
export { ScriptedToolPolicy, type ScriptedToolOptions } from './harness-1/tool-policy'
export { firstHopQueries, namesIn, readQuestion, type QuestionReading } from './harness-1/questions'

export interface ScriptedPolicyDeclaration {
  name: string
  description: string
  protocols: readonly Protocol[]
  create(protocol: Protocol, options: ScriptedPolicyOptions): Policy
}

export interface ScriptedPolicyOptions {
  /** The oracle's look-ahead through a twin environment; the other policies ignore it. */
  planner?: OraclePlanner
}

const SENTENCE: readonly SentenceProtocol[] = ['sentence-menu', 'sentence-search']
const asSentence = (p: Protocol): SentenceProtocol => p as SentenceProtocol

const declarations: ScriptedPolicyDeclaration[] = [
  { name: 'greedy', description: 'Commits the sentence covering the most unmet question terms; otherwise the most promising LOOKUP or search.', protocols: SENTENCE, create: (p) => new GreedyPolicy(asSentence(p)) },
  { name: 'random', description: 'Uniform over what is available (seeded by the episode seed).', protocols: SENTENCE, create: (p) => new RandomPolicy(asSentence(p)) },
  { name: 'oracle', description: 'Follows the gold: an upper bound on what the environment lets a policy reach, not a baseline.', protocols: SENTENCE, create: (p, o) => new OraclePolicy(asSentence(p), o.planner) },
  { name: 'scripted-tools', description: 'Harness-1 tool script: fan-out search, curate by tag, verify, end.', protocols: ['harness1-tools'], create: () => new ScriptedToolPolicy() },
]

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
