/**
 * The protocols, declared once: how a policy talks to an environment. Each name comes with its
 * capabilities as data (the action kind, whether the environment previews an action, the action that
 * stops with the evidence gathered so far), so every reader (the harness, the policies, the trainer, the
 * environment server, the renderer) tests a capability, never a protocol's name. The harness adds the
 * tools and the system prompt (main/harness/protocols.ts); the policy side its entries
 * (main/policy/protocols.ts), each table checked by the compiler for every name here.
 */
import { z } from 'zod'
import type { ActionShape } from './trajectory'

/**
 * - sentence-menu: Harness-G menu (Observation.data is the sentence substrate's SentenceEnvData);
 * - sentence-search: the free-query baseline over the same substrate (search / select / answer tools);
 * - harness1-tools: Harness-1's tools over its working memory.
 */
export const PROTOCOL_NAMES = ['sentence-menu', 'sentence-search', 'harness1-tools'] as const
export const ProtocolNameSchema = z.enum(PROTOCOL_NAMES)
export type ProtocolName = z.infer<typeof ProtocolNameSchema>

export const ActionKindSchema = z.enum(['menu', 'tools'])
/** Menu ids or tool calls. */
export type ActionKind = z.infer<typeof ActionKindSchema>

/** The menu id of ANSWER (stop with the committed evidence) wherever a sentence-substrate menu is spoken. */
export const MENU_ANSWER_ID = 'A'

export interface ProtocolCapabilities {
  /** Menu ids or tool calls. */
  actionKind: ActionKind
  /** The environment previews what each action would add (what a credit scheme that reads previews needs). */
  previews: boolean
  /** The action that stops the episode with the evidence gathered so far. */
  answer: ActionShape
  /**
   * The protocol's queries are free text the policy writes in one query tool (free query): what the prompt's
   * query cap and a GGUF run's extractive queries apply to. Harness-1's tools take queries too, but it has no such tool.
   */
  writesQueries: boolean
}

export const PROTOCOL_CAPABILITIES = {
  'sentence-menu': { actionKind: 'menu', previews: true, answer: { kind: 'menu', id: MENU_ANSWER_ID }, writesQueries: false },
  'sentence-search': { actionKind: 'tools', previews: false, answer: { kind: 'menu', id: MENU_ANSWER_ID }, writesQueries: true },
  'harness1-tools': { actionKind: 'tools', previews: false, answer: { kind: 'tool', name: 'end_search', arguments: { reasoning: '' } }, writesQueries: false },
} as const satisfies Record<ProtocolName, ProtocolCapabilities>

export const protocolCapabilities = (protocol: ProtocolName): ProtocolCapabilities => PROTOCOL_CAPABILITIES[protocol]

/**
 * What a training run of a protocol uses for each choice it leaves open, declared once: the train.run
 * resolver, saved configs, the training catalogue's defaults, the Training launcher's "Defaults", the Rewards
 * page's environment switch and the environment server all read this table. The credit must fit the protocol
 * (creditFits; a unit test checks it against the registry).
 */
export interface ProtocolTrainingDefaults {
  /** A credit scheme name (main/rl/credit). */
  credit: string
  /** Its lambda where the scheme weighs per-step credit against the outcome. */
  lambda: number
  /** An advantage estimator name (main/rl/estimators). */
  estimator: string
  /**
   * The reward: 'evidence', the F1 (+ all-gold bonus in training) of the finest gold level the train questions
   * carry; 'harness1', Harness-1's published reward where they carry document gold (else as 'evidence'). Its
   * preset follows from the questions' gold (rl/reward-schemes defaultRewardPreset).
   */
  reward: 'evidence' | 'harness1'
  /**
   * The scripted teacher (main/policy/scripted) a new head run imitates before RL when its config names no warm
   * start; null: RL from a random head. Measured in README "Warm start of the head".
   */
  warmStartTeacher: string | null
}

export const PROTOCOL_TRAINING_DEFAULTS = {
  // SNC reads the menu's previews of what each action would add.
  'sentence-menu': { credit: 'snc', lambda: 0.5, estimator: 'grpo', reward: 'evidence', warmStartTeacher: 'oracle' },
  // No previews: credit by the outcome alone.
  'sentence-search': { credit: 'outcome', lambda: 0.5, estimator: 'grpo', reward: 'evidence', warmStartTeacher: 'oracle' },
  // Harness-1 curates documents: sentence F1 is never measured on its episodes, its own reward is.
  'harness1-tools': { credit: 'outcome', lambda: 0.5, estimator: 'grpo', reward: 'harness1', warmStartTeacher: null },
} as const satisfies Record<ProtocolName, ProtocolTrainingDefaults>

/** The reward family defaultRewardPreset and the environment server's default take for a protocol. */
export const rewardFamilyOf = (defaults: Pick<ProtocolTrainingDefaults, 'reward'>): 'harness-g' | 'harness-1' => (defaults.reward === 'harness1' ? 'harness-1' : 'harness-g')

export const protocolTrainingDefaults = (protocol: ProtocolName): ProtocolTrainingDefaults => PROTOCOL_TRAINING_DEFAULTS[protocol]

/** The one rule: a credit scheme that reads previews needs a protocol whose environment gives them. */
export function creditFits(credit: { needsPreviews: boolean }, protocol: ProtocolName): boolean {
  return !credit.needsPreviews || PROTOCOL_CAPABILITIES[protocol].previews
}
