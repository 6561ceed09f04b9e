import type { Policy } from '../../harness'
import type { Action, ActionSpace, MenuItem, Observation } from '../../harness'
import { ConstrainedChooser } from '../../llm/choice'
import { PolicyError } from '../../llm/errors'
import { MENU_CUE } from '../prompt'
import { LogprobScorer } from '../../llm/scoring'
import { LlmPolicyBase, type LlmDecision, type LlmPolicyOptions, type PolicyModel } from './llm-policy-base'

/**
 * The observation as the policy reads it. Environments list the menu in render(); when some id is
 * missing from the text (a terse renderer), the menu is appended so the model sees every choice.
 */
export function menuPromptBody(observation: string, items: readonly MenuItem[]): string {
  if (items.every((item) => observation.includes(item.id))) return observation
  const menu = items.map((item) => `${item.id}: ${item.label}`).join('\n')
  return `${observation.trimEnd()}\n\nMenu:\n${menu}`
}

/**
 * An LLM choosing from a finite menu (Harness-G): the reply is grammar-constrained to exactly one of
 * the available ids, and the log-probability of the id under the distribution it was sampled from
 * is recorded for the learner.
 */
export class MenuLlmPolicy extends LlmPolicyBase implements Policy {
  readonly name: string
  private readonly chooser: ConstrainedChooser
  private readonly scorer: LogprobScorer

  constructor(model: PolicyModel, options: LlmPolicyOptions) {
    super(model, options)
    this.name = `llm-menu:${model.modelId}`
    this.chooser = new ConstrainedChooser(model.pool)
    this.scorer = new LogprobScorer(model.pool)
  }

  /**
   * The frozen model's log-probability of each menu id at this state (teacher-forced, full softmax), the
   * prior a trainable head adds to: softmax(beta · log p_LLM(id) + head(features)). The prompt is the one
   * act() would send; scores are cached per state by the scorer.
   */
  async menuLogprobs(observation: Observation, actions: ActionSpace, ids: readonly string[]): Promise<number[]> {
    if (actions.kind !== 'menu') throw new PolicyError('invalid-input', `${this.name} needs a menu action space, got ${actions.kind}`)
    const reserve = Math.max(...ids.map((id) => Buffer.byteLength(id))) + 1
    const system = this.systemPromptAt(actions)
    const { tokens } = this.renderFitted(system, this.bodyOf(menuPromptBody(observation.text, actions.items)), MENU_CUE, reserve)
    const scores = await this.scorer.scoreBatch(ids.map((id) => ({ prompt: tokens, target: id })))
    return scores.map((s) => s.sum)
  }

  /** The prompt act() sends for this state, with room for the longest id (one token per byte at worst) and the end token. */
  private promptFor(observation: Observation, actions: ActionSpace & { kind: 'menu' }) {
    if (actions.items.length === 0) throw new PolicyError('invalid-input', `${this.name}: the menu is empty (the episode is over)`)
    const reserve = Math.max(...actions.items.map((item) => Buffer.byteLength(item.id))) + 1
    const system = this.systemPromptAt(actions)
    return this.renderFitted(system, this.bodyOf(menuPromptBody(observation.text, actions.items)), MENU_CUE, reserve)
  }

  /**
   * Teacher forcing: the decision this policy records had it chosen `action` (another policy's choice)
   * at this state: the same prompt act() sends and the id's tokens as the reply, nothing sampled.
   */
  async imitate(observation: Observation, actions: ActionSpace, action: Action, teacher: string): Promise<LlmDecision> {
    if (actions.kind !== 'menu') throw new PolicyError('invalid-input', `${this.name} needs a menu action space, got ${actions.kind}`)
    if (action.kind !== 'menu' || !actions.items.some((item) => item.id === action.id)) throw new PolicyError('invalid-input', `${teacher} chose ${JSON.stringify(action)}, which is not on the menu`)
    const { seed, step } = this.nextStep()
    const { tokens, cutChars } = this.promptFor(observation, actions)
    const chosen = this.model.pool.model.tokenize(action.id, false)
    return { action, logprob: 0, raw: action.id, tokens: chosen.length, ms: 0, tokenLogprobs: [], promptTokens: tokens.length, seed, step, template: this.template, cutChars, imitated: teacher, ...(this.options.recordTokens ? { tokenIds: { prompt: tokens.map(Number), chosen: chosen.map(Number) } } : {}) }
  }

  async act(observation: Observation, actions: ActionSpace): Promise<LlmDecision> {
    if (actions.kind !== 'menu') throw new PolicyError('invalid-input', `${this.name} needs a menu action space, got ${actions.kind}`)
    const started = performance.now()
    const { seed, step } = this.nextStep()
    const ids = actions.items.map((item) => item.id)
    const { tokens, cutChars } = this.promptFor(observation, actions)
    const choice = await this.chooser.choose({
      prompt: tokens,
      allowed: ids,
      temperature: this.sampling.temperature,
      topK: this.sampling.topK,
      topP: this.sampling.topP,
      minP: this.sampling.minP,
      seed,
    })
    return {
      action: { kind: 'menu', id: choice.id },
      logprob: choice.logprob,
      raw: choice.id,
      tokens: choice.tokenLogprobs.length,
      ms: performance.now() - started,
      tokenLogprobs: choice.tokenLogprobs,
      promptTokens: tokens.length,
      seed,
      step,
      template: this.template,
      cutChars,
      ...(this.options.recordTokens ? { tokenIds: { prompt: tokens.map(Number), chosen: choice.tokens.map(Number) } } : {}),
    }
  }
}
