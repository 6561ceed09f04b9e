import { LlamaText, resolveChatWrapper, SpecialToken, type LlamaModel, type Token } from 'node-llama-cpp'
import { PolicyError } from './errors'
import { reusePrefix, type SequencePool } from './sequence-pool'

/** An instruction and its input; `cue` ends the plain layout a model without a chat template reads ("Rewritten question:"). */
export interface InstructPrompt {
  system: string
  user: string
  cue: string
}

export interface InstructLine {
  /** The reply up to its first line break, end of turn or the token limit, trimmed. */
  text: string
  /** Everything the model wrote (before the cut), for the record. */
  raw: string
  tokens: number
  reason: 'eog' | 'stop' | 'line' | 'max-tokens'
}

export interface RenderedInstruct {
  tokens: Token[]
  /** 'plain' or the chat wrapper's name. */
  template: string
  stops: string[]
}

/**
 * Renders an instruction the way the model reads one: its own chat template when the GGUF carries
 * one (node-llama-cpp's wrapper up to the opening of the assistant's turn), else a plain
 * "system / user / cue" layout for a base model. Message text is never parsed as special tokens.
 */
export function renderInstruct(model: LlamaModel, prompt: InstructPrompt): RenderedInstruct {
  const template = model.fileInfo.metadata?.tokenizer?.chat_template
  if (typeof template === 'string' && template.trim().length > 0) {
    const wrapper = resolveChatWrapper(model, { warningLogs: false })
    const state = wrapper.generateContextState({ chatHistory: [{ type: 'system', text: prompt.system }, { type: 'user', text: prompt.user }, { type: 'model', response: [] }] })
    const stops = state.stopGenerationTriggers.filter((t) => !t.values.some((v) => v instanceof SpecialToken)).map((t) => t.toString()).filter((t) => t.length > 0)
    return { tokens: state.contextText.tokenize(model.tokenizer), template: wrapper.wrapperName, stops }
  }
  const bos = model.tokens.bos !== null && model.tokens.shouldPrependBosToken ? [new SpecialToken('BOS')] : []
  const tokens = LlamaText([...bos, `${prompt.system}\n\n${prompt.user}\n\n${prompt.cue}`]).tokenize(model.tokenizer)
  if (tokens.length === 0) throw new PolicyError('invalid-input', 'the rendered prompt has no tokens')
  return { tokens, template: 'plain', stops: [] }
}

/**
 * One short line of greedy text after an instruction (a rewritten question, a title): decoding stops at
 * the end of the turn, a stop string, the first line break after some text, or `maxTokens`. Greedy, so
 * the same model and prompt give the same line; runs on one of the pool's sequences.
 */
export function instructLine(pool: SequencePool, prompt: InstructPrompt, maxTokens: number): Promise<InstructLine> {
  const model = pool.model
  const rendered = renderInstruct(model, prompt)
  const limit = Math.max(1, Math.floor(maxTokens))
  if (rendered.tokens.length + limit > pool.context.contextSize) {
    throw new PolicyError('invalid-input', `the prompt (${rendered.tokens.length} tokens) and ${limit} reply tokens exceed the context size ${pool.context.contextSize}`)
  }
  return pool.use(async (sequence) => {
    const toEvaluate = await reusePrefix(sequence, rendered.tokens)
    const out: Token[] = []
    const context = rendered.tokens.slice(-8)
    let raw = ''
    let reason: InstructLine['reason'] = 'max-tokens'
    for await (const token of sequence.evaluate(toEvaluate, { temperature: 0 })) {
      if (model.isEogToken(token)) {
        reason = 'eog'
        break
      }
      out.push(token)
      raw = model.detokenize(out, false, context)
      const stop = rendered.stops.map((s) => raw.indexOf(s)).filter((i) => i >= 0).sort((a, b) => a - b)[0]
      if (stop !== undefined) {
        raw = raw.slice(0, stop)
        reason = 'stop'
        break
      }
      // A line break after some text ends the line; leading blank lines are skipped.
      const trimmed = raw.replace(/^\s+/, '')
      if (/[\r\n]/.test(trimmed)) {
        reason = 'line'
        break
      }
      if (out.length >= limit) break
    }
    return { text: raw.trim().split(/[\r\n]/)[0]!.trim(), raw, tokens: out.length, reason }
  })
}
