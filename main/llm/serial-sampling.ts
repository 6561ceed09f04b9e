import type { LlamaContext } from 'node-llama-cpp'

const guarded = new WeakSet<object>()

/**
 * Lets one token be sampled at a time on a context. node-llama-cpp samples the sequences of one batch
 * on concurrent worker threads, and those reads of the batch's logits race (measured: 6-18 of 900
 * greedy answers on 4 sequences took a token with log-prob -18 where the single-sequence reference
 * chose one at -0.6, on a loaded 2-core machine; 0 of 900 with sampling serialised). Decoding, the
 * costly part, stays batched. Wraps the native context's sampleToken once; node-llama-cpp 3.x only
 * exposes it as `_ctx`, so a future release without it is left untouched.
 */
export function serializeSampling(context: LlamaContext): void {
  const native = (context as unknown as { _ctx?: Record<string, unknown> })._ctx
  if (!native || guarded.has(native) || typeof native.sampleToken !== 'function') return
  const sample = native.sampleToken as (...args: unknown[]) => Promise<unknown>
  let last: Promise<unknown> = Promise.resolve()
  Object.defineProperty(native, 'sampleToken', {
    configurable: true,
    value: (...args: unknown[]): Promise<unknown> => {
      const result = last.then(() => sample.apply(native, args))
      last = result.catch(() => undefined)
      return result
    },
  })
  guarded.add(native)
}
