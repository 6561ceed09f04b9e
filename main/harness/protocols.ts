/**
 * The harness half of each protocol's declaration (the names and capabilities are the contract's,
 * preload/contract/protocols.ts): the tool a free query is written in, what the system prompt reads of
 * the run's environment config, and the system prompt itself. The environment server, the SFT export and
 * the LLM policies all build their system prompt with `systemPrompt()` below, so a model sees the same
 * words whichever of them drives it. The observation text comes from the environment's render(); the
 * prompt only says what kind of reply is expected. Each protocol declares its instructions twice, for a text
 * policy and for a tool-calling one (PolicyStyle); the environment server serves either (its `instructions`
 * option), so a trainer that acts through tool calls never rewrites a prompt.
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

/**
 * Who reads the instructions. A text policy replies with text the environment parses (a menu id, a JSON tool call:
 * the app's own LLM policies, verl, OpenRLHF, Search-R1). A tool-calling policy acts through its trainer's tool calls
 * (TRL's environment_factory, an OpenEnv client with typed tools): the chat template writes the call and lists the
 * tools, so its instructions ask for a call and the system prompt carries no tools block; a menu is acted on through
 * the protocol's `menuTool`.
 */
export type PolicyStyle = 'text' | 'tools'
export const POLICY_STYLES: readonly PolicyStyle[] = ['text', 'tools']

export interface HarnessProtocol extends ProtocolCapabilities {
  name: Protocol
  /** The tool whose `query` a policy writes itself (capped to `maxQueryChars`); null where queries are not the policy's (writesQueries false). */
  queryTool: string | null
  /** The prompt's parameters, read from the environment's resolved config. */
  promptParams(config: Record<string, unknown>): PromptParams
  /** What kind of reply is expected, per policy style, before the tools block. */
  instructions: Record<PolicyStyle, (params: PromptParams) => string>
  /** Menu protocols: the line above each observation's menu, per policy style (the environment renders the text one). */
  menuCue: Record<PolicyStyle, string> | null
  /** Menu protocols: the one tool a tool-calling policy acts through (its argument is a menu id). */
  menuTool: ToolSchema | null
}

const MENU_LEAD = [
  'You are a search agent that answers multi-hop questions from a private document collection.',
  'Each turn shows the question, the evidence committed so far, the sentences and entities now visible, and a menu of actions, each with an id.',
  'SELECT commits a visible sentence as evidence. LOOKUP brings up sentences about an entity. ANSWER_WITH commits a sentence and stops. ANSWER stops with the evidence already committed.',
  'Commit the sentences that together answer the question, follow the entities that bridge to missing facts, and stop as soon as the evidence is sufficient.',
]
export const MENU_SYSTEM_PROMPT = [...MENU_LEAD, 'Reply with exactly one action id from the menu and nothing else.'].join('\n')
export const MENU_TOOL_SYSTEM_PROMPT = [...MENU_LEAD, 'Act by calling the tool choose with exactly one action id from the menu as menu_id; one call per turn.'].join('\n')

/** The tool a tool-calling policy acts on a menu through: choose(menu_id). The server maps the call to that menu id. */
export const MENU_TOOL: ToolSchema = {
  name: 'choose',
  description: 'Choose one action from the menu by its id.',
  parameters: { type: 'object', properties: { menu_id: { type: 'string', description: 'The id of a menu item, as listed in the last observation (e.g. "S3").' } }, required: ['menu_id'], additionalProperties: false },
}
const MENU_CUE: Record<PolicyStyle, string> = { text: 'Menu: reply with exactly one id.', tools: 'Menu: call choose(menu_id) with exactly one id.' }

const TOOLS_LEAD = ['You are a search agent that gathers evidence for a question from a private document collection.', 'Each turn shows the question and the state of your search. Act by calling exactly one tool.']
export const TOOLS_SYSTEM_PROMPT = [...TOOLS_LEAD, 'Reply with a single JSON object of the form {"name": <tool name>, "arguments": {...}} whose arguments follow that tool\'s parameter schema, and nothing else.'].join('\n')
export const TOOLS_TOOL_SYSTEM_PROMPT = [...TOOLS_LEAD, "Give each call arguments that follow that tool's parameter schema."].join('\n')

const FREE_QUERY_LEAD = [
  'You are a search agent that gathers evidence for a question from a private document collection.',
  'Each turn shows the question and the evidence found so far. Write a short keyword query for the fact still missing, or stop when the evidence is sufficient.',
]
export const FREE_QUERY_SYSTEM_PROMPT = [...FREE_QUERY_LEAD, 'Reply with a single JSON object of the form {"name": <tool name>, "arguments": {...}} and nothing else.'].join('\n')
export const FREE_QUERY_TOOL_SYSTEM_PROMPT = [...FREE_QUERY_LEAD, 'Act by calling exactly one tool.'].join('\n')

/** The free-query tool whose `query` the policy writes (Search-R1's search); its schema is the free-query environment's. */
export const SEARCH_TOOL = 'search'

const numberOption = (config: Record<string, unknown>, key: string): number | undefined => (typeof config[key] === 'number' ? (config[key] as number) : undefined)
const withQueryCap = (base: string, { maxQueryChars }: PromptParams) => (maxQueryChars === undefined ? base : `${base}\nQueries have at most ${maxQueryChars} characters.`)

const DECLARATIONS = {
  'sentence-menu': {
    ...PROTOCOL_CAPABILITIES['sentence-menu'],
    name: 'sentence-menu',
    queryTool: null,
    promptParams: () => ({}),
    instructions: { text: () => MENU_SYSTEM_PROMPT, tools: () => MENU_TOOL_SYSTEM_PROMPT },
    menuCue: MENU_CUE,
    menuTool: MENU_TOOL,
  },
  'sentence-search': {
    ...PROTOCOL_CAPABILITIES['sentence-search'],
    name: 'sentence-search',
    queryTool: SEARCH_TOOL,
    promptParams: (config) => ({ maxQueryChars: numberOption(config, 'maxQueryChars') }),
    instructions: { text: (p) => withQueryCap(FREE_QUERY_SYSTEM_PROMPT, p), tools: (p) => withQueryCap(FREE_QUERY_TOOL_SYSTEM_PROMPT, p) },
    menuCue: null,
    menuTool: null,
  },
  'harness1-tools': {
    ...PROTOCOL_CAPABILITIES['harness1-tools'],
    name: 'harness1-tools',
    queryTool: null,
    promptParams: () => ({}),
    instructions: { text: () => TOOLS_SYSTEM_PROMPT, tools: () => TOOLS_TOOL_SYSTEM_PROMPT },
    menuCue: null,
    menuTool: null,
  },
} satisfies Record<Protocol, HarnessProtocol>

export const protocolDeclaration = (protocol: Protocol): HarnessProtocol => DECLARATIONS[protocol]

/** The system prompt's parameters for an environment speaking `protocol` with this (resolved) config. */
export const promptParams = (protocol: Protocol, config: Record<string, unknown>): PromptParams => DECLARATIONS[protocol].promptParams(config)

export interface SystemPromptOptions {
  /** Replaces the protocol's instructions (a policy's own system prompt); the tools block still follows. */
  instructions?: string
  /** List the tools after the instructions (default true for text policies; never for tool-calling ones, whose chat template lists them). */
  describeTools?: boolean
  /** Whose instructions: a text policy's (default) or a tool-calling policy's. */
  style?: PolicyStyle
}

/**
 * The one system prompt of a protocol: its instructions for the policy style with the run's parameters, then, for a
 * text policy where the action space has tools, each tool as a compact signature with its argument descriptions.
 */
export function systemPrompt(protocol: Protocol, params: PromptParams, tools: readonly ToolSchema[] = [], options: SystemPromptOptions = {}): string {
  const style = options.style ?? 'text'
  const base = options.instructions ?? DECLARATIONS[protocol].instructions[style](params)
  return tools.length === 0 || options.describeTools === false || style === 'tools' ? base : `${base}\n\n${describeTools(tools)}`
}

/** The menu's cue line of a protocol for a text policy (what the environment renders above each menu). */
export const menuCue = (protocol: Protocol): string | null => DECLARATIONS[protocol].menuCue?.text ?? null

/**
 * An observation as a policy of `style` reads it: for a tool-calling policy the menu's cue asks for the menu tool
 * (the environment renders the text policy's cue, from this declaration, on its own line).
 */
export function observationFor(protocol: Protocol, style: PolicyStyle, text: string): string {
  const cue = DECLARATIONS[protocol].menuCue
  return style === 'text' || !cue ? text : text.split('\n').map((line) => (line === cue.text ? cue.tools : line)).join('\n')
}
