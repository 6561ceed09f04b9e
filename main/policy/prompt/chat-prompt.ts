import { LlamaText, resolveChatWrapper, SpecialToken, type ChatWrapper, type LlamaModel, type Token } from 'node-llama-cpp'
import { PolicyError } from '../../llm/errors'

/** 'auto' uses the model's own chat template when the GGUF carries one; 'plain' always uses the fallback. */
export type TemplateChoice = 'auto' | 'plain'

export interface PromptParts {
  system: string
  user: string
  /**
   * The last line of the plain fallback, which tells a base model what comes next ("Answer:").
   * Chat templates end with the assistant's turn opening instead, so there it is not used.
   */
  cue: string
}

export interface RenderedPrompt {
  /** Exactly what goes into the sequence, BOS included when the template or the model asks for it. */
  tokens: Token[]
  /** The prompt as text (special tokens written out), for the trajectory view and debugging. */
  text: string
  /** 'plain' or the node-llama-cpp chat wrapper that rendered it ('ChatML', 'JinjaTemplate', ...). */
  template: string
  /** Text that ends the model's turn under this template, for free generation. */
  stopTriggers: string[]
  /** Kept for tokenizing the prompt jointly with a continuation. */
  llamaText: LlamaText
}

/**
 * A stop trigger as plain text, or null when it names a special token (EOS, EOT): those are
 * end-of-generation tokens, which generation already stops on.
 */
function triggerText(trigger: LlamaText): string | null {
  if (trigger.values.some((v) => v instanceof SpecialToken)) return null
  const text = trigger.toString()
  return text.length > 0 ? text : null
}

/** The chat template stored in the GGUF, if any. */
export function modelChatTemplate(model: LlamaModel): string | null {
  const template = model.fileInfo.metadata?.tokenizer?.chat_template
  return typeof template === 'string' && template.trim().length > 0 ? template : null
}

/**
 * Renders system + user messages the way the model was trained to read them. With a chat template
 * in the GGUF, node-llama-cpp's wrapper for it (a specialised one when the Jinja template matches a
 * known family, else the Jinja template itself) renders the conversation up to the opening of the
 * assistant's turn. Without one, a plain "system / user / cue" layout is used rather than a guessed
 * family template: a base model has never seen any chat format, and a wrong one only adds noise.
 *
 * Message text is tokenized as text, never as special tokens, so an observation that happens to
 * contain "<|im_end|>" cannot close the turn early.
 */
export class PromptRenderer {
  private readonly wrapper: ChatWrapper | null
  readonly template: string

  constructor(readonly model: LlamaModel, choice: TemplateChoice = 'auto') {
    const own = choice === 'auto' ? modelChatTemplate(model) : null
    this.wrapper = own === null ? null : resolveChatWrapper(model, { warningLogs: false })
    this.template = this.wrapper?.wrapperName ?? 'plain'
  }

  get usesChatTemplate(): boolean {
    return this.wrapper !== null
  }

  render(parts: PromptParts): RenderedPrompt {
    let llamaText: LlamaText
    let stopTriggers: string[] = ['\n\n']
    if (this.wrapper) {
      const state = this.wrapper.generateContextState({
        chatHistory: [
          { type: 'system', text: parts.system },
          { type: 'user', text: parts.user },
          { type: 'model', response: [] },
        ],
      })
      llamaText = state.contextText
      stopTriggers = state.stopGenerationTriggers.map(triggerText).filter((t): t is string => t !== null)
    } else {
      const bos = this.model.tokens.bos !== null && this.model.tokens.shouldPrependBosToken ? [new SpecialToken('BOS')] : []
      llamaText = LlamaText([...bos, `${parts.system}\n\n${parts.user}\n\n${parts.cue}`])
    }
    const tokens = llamaText.tokenize(this.model.tokenizer)
    if (tokens.length === 0) throw new PolicyError('invalid-input', 'the rendered prompt has no tokens')
    return { tokens, text: llamaText.toString(), template: this.template, stopTriggers: [...new Set(stopTriggers)], llamaText }
  }

  /**
   * The prompt and a continuation tokenized together, split after the longest shared prefix with
   * the prompt alone: the continuation is then scored with the tokens the model would have produced
   * after this prompt (merges across the boundary count as continuation).
   */
  split(prompt: RenderedPrompt, continuation: string): { prompt: Token[]; target: Token[] } {
    if (continuation.length === 0) throw new PolicyError('invalid-input', 'the continuation is empty')
    const whole = LlamaText([prompt.llamaText, continuation]).tokenize(this.model.tokenizer)
    let shared = 0
    while (shared < prompt.tokens.length && shared < whole.length && prompt.tokens[shared] === whole[shared]) shared++
    if (shared === 0) throw new PolicyError('invalid-input', 'the prompt and its continuation share no tokens')
    const target = whole.slice(shared)
    if (target.length === 0) throw new PolicyError('invalid-input', `the continuation ${JSON.stringify(continuation)} tokenizes to nothing after the prompt`)
    return { prompt: whole.slice(0, shared), target }
  }
}
