/**
 * The harness half of each protocol's declaration (the names and capabilities are the contract's,
 * preload/contract/protocols.ts): the tool a free query is written in, what the system prompt reads of
 * the run's environment config, and the system prompt itself. The environment server, the SFT export and
 * the LLM policies all build their system prompt with `systemPrompt()` below, so a model sees the same
 * words whichever of them drives it. The observation text comes from the environment's render(); the
 * prompt only says what kind of reply is expected.
 */
import { PROTOCOL_CAPABILITIES, PROTOCOL_NAMES, type ProtocolCapabilities, type ProtocolName } from '../../preload/contract/protocols'
import { describeTools } from './tool-signature'
import type { ToolSchema } from './types'

/** The observation/action contract an environment speaks; policies are matched to environments by it, never by the environment's name. */
export type Protocol = ProtocolName
export const PROTOCOLS: readonly Protocol[] = PROTOCOL_NAMES

/** What a system prompt reads of the run's environment config (each protocol reads only its own). */
export interface PromptParams {
  /** Free query: most characters per query. */
  maxQueryChars?: number
}

export interface HarnessProtocol extends ProtocolCapabilities {
  name: Protocol
  /** The tool whose `query` a policy writes itself (capped to `maxQueryChars`); null where queries are not the policy's (writesQueries false). */
  queryTool: string | null
  /** The prompt's parameters, read from the environment's resolved config. */
  promptParams(config: Record<string, unknown>): PromptParams
  /** What kind of reply is expected, before the tools block. */
  instructions(params: PromptParams): string
}

export const MENU_SYSTEM_PROMPT = [
  'You are a search agent that answers multi-hop questions from a private document collection.',
  'Each turn shows the question, the evidence committed so far, the sentences and entities now visible, and a menu of actions, each with an id.',
  'SELECT commits a visible sentence as evidence. LOOKUP brings up sentences about an entity. ANSWER_WITH commits a sentence and stops. ANSWER stops with the evidence already committed.',
  'Commit the sentences that together answer the question, follow the entities that bridge to missing facts, and stop as soon as the evidence is sufficient.',
  'Reply with exactly one action id from the menu and nothing else.',
].join('\n')

export const TOOLS_SYSTEM_PROMPT = [
  'You are a search agent that gathers evidence for a question from a private document collection.',
  'Each turn shows the question and the state of your search. Act by calling exactly one tool.',
  'Reply with a single JSON object of the form {"name": <tool name>, "arguments": {...}} whose arguments follow that tool\'s parameter schema, and nothing else.',
].join('\n')

export const FREE_QUERY_SYSTEM_PROMPT = [
  'You are a search agent that gathers evidence for a question from a private document collection.',
  'Each turn shows the question and the evidence found so far. Write a short keyword query for the fact still missing, or stop when the evidence is sufficient.',
  'Reply with a single JSON object of the form {"name": <tool name>, "arguments": {...}} and nothing else.',
].join('\n')

/** The free-query tool whose `query` the policy writes (Search-R1's search); its schema is the free-query environment's. */
export const SEARCH_TOOL = 'search'

const numberOption = (config: Record<string, unknown>, key: string): number | undefined => (typeof config[key] === 'number' ? (config[key] as number) : undefined)

const DECLARATIONS = {
  'sentence-menu': {
    ...PROTOCOL_CAPABILITIES['sentence-menu'],
    name: 'sentence-menu',
    queryTool: null,
    promptParams: () => ({}),
    instructions: () => MENU_SYSTEM_PROMPT,
  },
  'sentence-search': {
    ...PROTOCOL_CAPABILITIES['sentence-search'],
    name: 'sentence-search',
    queryTool: SEARCH_TOOL,
    promptParams: (config) => ({ maxQueryChars: numberOption(config, 'maxQueryChars') }),
    instructions: ({ maxQueryChars }) => (maxQueryChars === undefined ? FREE_QUERY_SYSTEM_PROMPT : `${FREE_QUERY_SYSTEM_PROMPT}\nQueries have at most ${maxQueryChars} characters.`),
  },
  'harness1-tools': {
    ...PROTOCOL_CAPABILITIES['harness1-tools'],
    name: 'harness1-tools',
    queryTool: null,
    promptParams: () => ({}),
    instructions: () => TOOLS_SYSTEM_PROMPT,
  },
} satisfies Record<Protocol, HarnessProtocol>

export const protocolDeclaration = (protocol: Protocol): HarnessProtocol => DECLARATIONS[protocol]

/** The system prompt's parameters for an environment speaking `protocol` with this (resolved) config. */
export const promptParams = (protocol: Protocol, config: Record<string, unknown>): PromptParams => DECLARATIONS[protocol].promptParams(config)

export interface SystemPromptOptions {
  /** Replaces the protocol's instructions (a policy's own system prompt); the tools block still follows. */
  instructions?: string
  /** List the tools after the instructions (default true). */
  describeTools?: boolean
}

/**
 * The one system prompt of a protocol: its instructions with the run's parameters, then, where the action
 * space has tools, each tool as a compact signature with its argument descriptions.
 */
export function systemPrompt(protocol: Protocol, params: PromptParams, tools: readonly ToolSchema[] = [], options: SystemPromptOptions = {}): string {
  const base = options.instructions ?? DECLARATIONS[protocol].instructions(params)
  return tools.length === 0 || options.describeTools === false ? base : `${base}\n\n${describeTools(tools)}`
}
