import type { LlamaModel, Token } from 'node-llama-cpp'
import { PolicyError } from './errors'

/** A prompt or continuation given either as text or as token ids already produced by the model's tokenizer. */
export type TextOrTokens = string | readonly Token[]

export interface TokenizeOptions {
  /** Parse special-token text such as <|im_start|> in prompts produced by a chat template (default true). */
  specialTokens?: boolean
}

function withBos(model: LlamaModel, tokens: Token[], forceBos: boolean): Token[] {
  const bos = model.tokens.bos
  if (bos === null || tokens[0] === bos) return tokens
  // An empty prompt still needs one token to predict from, so BOS goes in even when the model does not ask for it.
  if (model.tokens.shouldPrependBosToken || forceBos) return [bos, ...tokens]
  return tokens
}

/** Prompt tokens exactly as they go into the sequence, BOS included when the model wants it. */
export function tokenizePrompt(model: LlamaModel, prompt: TextOrTokens, options: TokenizeOptions = {}): Token[] {
  const raw = typeof prompt === 'string' ? model.tokenize(prompt, options.specialTokens ?? true) : [...prompt]
  const tokens = withBos(model, raw, raw.length === 0)
  if (tokens.length === 0) throw new PolicyError('invalid-input', 'the prompt is empty and the model has no BOS token to start from')
  return tokens
}

/**
 * Split prompt + target into context and continuation tokens. Text is tokenized jointly and the prompt's
 * tokens are matched as a prefix, so a target is scored the way the model would see it after the prompt
 * (SentencePiece's leading-space piece, merges across the boundary); if the boundary merges, the merged
 * token counts as part of the target.
 */
export function splitContinuation(model: LlamaModel, prompt: TextOrTokens, target: TextOrTokens, options: TokenizeOptions = {}): { prompt: Token[]; target: Token[] } {
  if (typeof prompt !== 'string' || typeof target !== 'string') {
    const promptTokens = tokenizePrompt(model, prompt, options)
    const targetTokens = typeof target === 'string' ? model.tokenize(target, options.specialTokens ?? true) : [...target]
    if (targetTokens.length === 0) throw new PolicyError('invalid-input', 'the target continuation is empty')
    return { prompt: promptTokens, target: targetTokens }
  }
  if (target.length === 0) throw new PolicyError('invalid-input', 'the target continuation is empty')
  const special = options.specialTokens ?? true
  const context = model.tokenize(prompt, special)
  const whole = model.tokenize(prompt + target, special)
  let shared = 0
  while (shared < context.length && shared < whole.length && context[shared] === whole[shared]) shared++
  const forceBos = shared === 0
  const promptTokens = withBos(model, whole.slice(0, shared), forceBos)
  const targetTokens = whole.slice(shared)
  if (promptTokens.length === 0) throw new PolicyError('invalid-input', 'the prompt is empty and the model has no BOS token to start from')
  if (targetTokens.length === 0) throw new PolicyError('invalid-input', 'the target tokenizes to nothing after the prompt')
  return { prompt: promptTokens, target: targetTokens }
}
