import type { LlamaContext, Token } from 'node-llama-cpp'

/**
 * Independent reference for log-probability tests: a fresh sequence per target position, reading the
 * full next-token distribution after the prefix (no sampling truncation). The caller supplies the
 * context (and so its flash-attention setting) and disposes of nothing: this function owns it.
 */
export async function stepwiseLogprobs(context: LlamaContext, prompt: Token[], target: Token[]): Promise<number[]> {
  const out: number[] = []
  try {
    for (let i = 0; i < target.length; i++) {
      const sequence = context.getSequence()
      const steps = sequence.evaluateWithMetadata([...prompt, ...target.slice(0, i)], { probabilities: true })
      const first = await steps.next()
      await steps.return()
      if (first.done) throw new Error('no step')
      out.push(Math.log(first.value.probabilities.get(target[i]!)!))
      await sequence.dispose()
    }
  } finally {
    await context.dispose()
  }
  return out
}
