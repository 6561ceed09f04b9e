import type { LlamaContext, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp'
import { PolicyError } from './errors'
import { serializeSampling } from './serial-sampling'

/**
 * Lends the sequences of one context to concurrent callers. Work started on several sequences in
 * the same tick is decoded together in one llama.cpp batch, which is where parallel speed comes from.
 */
export class SequencePool {
  private readonly idle: LlamaContextSequence[] = []
  private readonly waiting: Array<{ resolve: (seq: LlamaContextSequence) => void; reject: (error: Error) => void }> = []
  private disposed = false

  constructor(readonly context: LlamaContext) {
    if (context.totalSequences > 1) serializeSampling(context)
    for (let i = 0; i < context.totalSequences; i++) this.idle.push(context.getSequence())
  }

  get size(): number {
    return this.context.totalSequences
  }

  get model(): LlamaModel {
    return this.context.model
  }

  async use<T>(fn: (sequence: LlamaContextSequence) => Promise<T>): Promise<T> {
    if (this.disposed) throw new PolicyError('disposed', 'the sequence pool has been disposed')
    const sequence = this.idle.pop() ?? (await new Promise<LlamaContextSequence>((resolve, reject) => this.waiting.push({ resolve, reject })))
    try {
      return await fn(sequence)
    } finally {
      const next = this.waiting.shift()
      if (next) next.resolve(sequence)
      else this.idle.push(sequence)
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true
    for (const waiter of this.waiting.splice(0)) waiter.reject(new PolicyError('disposed', 'the sequence pool was disposed while waiting for a sequence'))
    await this.context.dispose()
  }
}

/**
 * Keep the longest cached prefix of `tokens` in the sequence but always leave at least the last token
 * to evaluate, since its logits are what the caller needs. Returns the tokens still to evaluate.
 */
export async function reusePrefix(sequence: LlamaContextSequence, tokens: readonly Token[]): Promise<Token[]> {
  if (tokens.length === 0) throw new PolicyError('invalid-input', 'nothing to evaluate: the prompt has no tokens')
  // No shifting: a shifted cache would evaluate differently from a fresh one.
  await sequence.adaptStateToTokens(tokens.slice(0, -1), false)
  return tokens.slice(sequence.nextTokenIndex)
}
