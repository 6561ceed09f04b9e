import { join } from 'node:path'
import type { LlamaModel, Token } from 'node-llama-cpp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlamaRuntime, type LoadedModel } from '../../main/llm/llama-runtime'
import { LogprobScorer, type ScoreRequest } from '../../main/llm/scoring'
import type { SequencePool } from '../../main/llm/sequence-pool'
import { fixtureDir, STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama } from '../helpers/gguf'
import { stepwiseLogprobs } from '../helpers/gguf/reference'
import { useRuntimeFixture } from '../helpers/gguf/runtime'

const fixture = useRuntimeFixture()
const tmp = fixture.tmp


const REQUESTS: ScoreRequest[] = [
  { prompt: 'Question: what is the capital of France? Answer:', target: ' Paris' },
  { prompt: 'Question: what is the capital of France? Answer:', target: ' the city of Paris, France' },
  { prompt: 'Once upon a time,', target: ' there was a little girl' },
  { prompt: 'the evidence', target: ' was selected' },
  { prompt: '', target: 'a big day' },
  { prompt: 'lookup entity', target: ' Ünïcödé ✓' },
]

describe.each(['spm', 'bpe'] as const)('LogprobScorer on a tiny %s model', (vocab) => {
  let loaded: LoadedModel
  let model: LlamaModel
  beforeAll(async () => {
    loaded = await fixture.runtime().loadModel(writeTinyLlama(join(tmp.dir, `${vocab}.gguf`), { vocab, seed: 21 }).file)
    model = loaded.model
  })
  afterAll(async () => {
    await loaded.dispose()
  })

  it('equals the sum of per-token log-probabilities computed step by step', async () => {
    const pool = await loaded.createSequencePool({ sequences: 1, contextSize: 256 })
    const scorer = new LogprobScorer(pool)
    for (const request of REQUESTS.slice(1, 4)) {
      const score = await scorer.score(request)
      const reference = await stepwiseLogprobs(await loaded.createContext({ contextSize: 256 }), score.promptTokens, score.targetTokens)
      expect(score.tokenLogprobs).toHaveLength(reference.length)
      score.tokenLogprobs.forEach((lp, i) => expect(lp).toBeCloseTo(reference[i]!, 4))
      expect(Math.abs(score.sum - reference.reduce((a, b) => a + b, 0))).toBeLessThan(1e-4)
      expect(score.mean).toBeCloseTo(score.sum / score.targetTokens.length, 10)
      expect(score.floored).toBe(0)
      for (const lp of score.tokenLogprobs) expect(lp).toBeLessThan(0)
    }
    await pool.dispose()
  })

  it('splits prompt and target the way the model tokenizes them together', async () => {
    const pool = await loaded.createSequencePool({ sequences: 1, contextSize: 256 })
    const scorer = new LogprobScorer(pool)
    const score = await scorer.score(REQUESTS[2]!)
    const bos = model.tokens.bos!
    // The tiny SPM model asks for BOS, the BPE one does not (like most byte-level models).
    expect(score.promptTokens[0] === bos).toBe(model.tokens.shouldPrependBosToken)
    const whole = model.tokenize('Once upon a time, there was a little girl')
    const promptText = model.tokens.shouldPrependBosToken ? score.promptTokens.slice(1) : score.promptTokens
    expect([...promptText, ...score.targetTokens]).toEqual(whole)
    // An empty prompt still starts from BOS.
    expect((await scorer.score({ prompt: '', target: 'the day' })).promptTokens).toEqual([bos])
    expect(model.detokenize(score.targetTokens, false, score.promptTokens)).toBe(' there was a little girl')
    // Token input skips tokenization entirely.
    const byTokens = await scorer.score({ prompt: score.promptTokens, target: score.targetTokens })
    expect(byTokens.sum).toBeCloseTo(score.sum, 6)
    await pool.dispose()
  })

  it('gives the same numbers on parallel sequences as sequentially, and caches', async () => {
    const sequential = new LogprobScorer(await loaded.createSequencePool({ sequences: 1, contextSize: 256 }))
    const parallelPool = await loaded.createSequencePool({ sequences: 4, contextSize: 256 })
    const parallel = new LogprobScorer(parallelPool)
    const one: number[] = []
    for (const r of REQUESTS) one.push((await sequential.score(r)).sum)
    const many = await parallel.scoreBatch(REQUESTS)
    many.forEach((s, i) => expect(Math.abs(s.sum - one[i]!)).toBeLessThan(1e-4))
    expect(many.every((s) => !s.cached)).toBe(true)
    const again = await parallel.scoreBatch(REQUESTS)
    expect(again.every((s) => s.cached)).toBe(true)
    again.forEach((s, i) => expect(s.sum).toBe(many[i]!.sum))
    parallel.clearCache()
    expect((await parallel.score(REQUESTS[0]!)).cached).toBe(false)
    await parallelPool.dispose()
  })

  it('rejects targets that do not fit and empty targets', async () => {
    const pool = await loaded.createSequencePool({ sequences: 1, contextSize: 32 })
    const scorer = new LogprobScorer(pool)
    await expect(scorer.score({ prompt: 'the', target: ' the'.repeat(600) })).rejects.toMatchObject({ code: 'invalid-input' })
    await expect(scorer.score({ prompt: 'the', target: '' })).rejects.toMatchObject({ code: 'invalid-input' })
    await pool.dispose()
  })
})

describe('LogprobScorer on stories260K', () => {
  let pool: SequencePool | undefined
  let loaded: LoadedModel | undefined
  afterAll(async () => {
    await pool?.dispose()
    await loaded?.dispose()
  })

  it.skipIf(!storiesAvailable)(storiesTitle('a plausible continuation beats a scrambled one'), async () => {
    loaded = await fixture.runtime().loadModel(STORIES_260K)
    pool = await loaded.createSequencePool({ sequences: 2, contextSize: 256 })
    const scorer = new LogprobScorer(pool)
    const [plausible, scrambled] = await scorer.scoreBatch([
      { prompt: '', target: 'Once upon a time, there was a little girl' },
      { prompt: '', target: 'girl little a was there, time a upon Once' },
    ])
    expect(plausible!.mean).toBeGreaterThan(scrambled!.mean + 1)
    expect(plausible!.mean).toBeGreaterThan(-1)
  })
})
