/**
 * The policy half of each protocol's declaration, in one table the compiler checks for every protocol
 * (the names and capabilities are the contract's, the tools and system prompt the harness's): the LLM
 * policy kind that speaks it, the head's candidates, the scripted policies that drive it, and the credit
 * scheme a trainer gets when it names none. Nothing else maps a protocol to a policy.
 */
import { PROTOCOLS, type Protocol } from '../harness'
import type { CandidateBuilder } from './head-policy/candidate'
import { layoutDimension } from './head-policy/features'
import { harness1Candidates } from './head-policy/harness1-candidates'
import { menuCandidates, searchCandidates } from './head-policy/sentence-candidates'
import type { LlmPolicyKind } from './llm-policy/factory'
import type { ScriptedPolicyName } from './scripted'

export interface PolicySideEntry {
  /** The LLM policy kind that speaks it (main/policy/llm-policy). */
  llmKind: LlmPolicyKind
  /** The head's candidates and feature layout; null where the head does not drive it. */
  headCandidates: CandidateBuilder | null
  /** The scripted policies that drive it without a model (main/policy/scripted), by name. */
  scripted: readonly ScriptedPolicyName[]
  /** The credit scheme (a name in rl/credit) its episodes get when the trainer names none; it must fit the protocol's capabilities. */
  defaultCredit: string
  /** The scripted teacher a new head run imitates before RL when its config names no warm start (null: none); measured in README "Warm start of the head". */
  warmStartTeacher: ScriptedPolicyName | null
}

const POLICY_SIDE = {
  'sentence-menu': { llmKind: 'llm-menu', headCandidates: menuCandidates, scripted: ['greedy', 'random', 'oracle'], defaultCredit: 'snc', warmStartTeacher: 'oracle' },
  'sentence-search': { llmKind: 'llm-free-query', headCandidates: searchCandidates, scripted: ['greedy', 'search-first', 'random', 'oracle'], defaultCredit: 'outcome', warmStartTeacher: 'oracle' },
  'harness1-tools': { llmKind: 'llm-tools', headCandidates: harness1Candidates, scripted: ['scripted-tools'], defaultCredit: 'outcome', warmStartTeacher: null },
} satisfies Record<Protocol, PolicySideEntry>

export const policySide = (protocol: Protocol): PolicySideEntry => POLICY_SIDE[protocol]

/** The protocol an LLM policy kind speaks (the table read backwards). */
export function llmKindProtocol(kind: LlmPolicyKind): Protocol {
  const protocol = PROTOCOLS.find((p) => POLICY_SIDE[p].llmKind === kind)
  if (!protocol) throw new Error(`No protocol is spoken by the LLM policy kind "${kind}"`)
  return protocol
}

/** Protocols the policy head drives. */
export const HEAD_PROTOCOLS: readonly Protocol[] = PROTOCOLS.filter((p) => POLICY_SIDE[p].headCandidates !== null)

export function candidateBuilder(protocol: Protocol): CandidateBuilder {
  const b = POLICY_SIDE[protocol].headCandidates
  if (!b) throw new Error(`The policy head does not drive ${protocol} environments; it drives ${HEAD_PROTOCOLS.join(', ')}`)
  return b
}

/** The input dimension a head needs for an environment speaking `protocol`. */
export const headInputDim = (protocol: Protocol): number => layoutDimension(candidateBuilder(protocol).layout)

/** The protocols a scripted policy drives. */
export const scriptedProtocols = (name: string): Protocol[] => PROTOCOLS.filter((p) => (POLICY_SIDE[p].scripted as readonly string[]).includes(name))
