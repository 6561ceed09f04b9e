import { writeFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Token } from 'node-llama-cpp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAnswerer, GgufAnswerer, LexicalAnswerer, type AnswerDetail } from '../../main/policy/answerer'
import { ModelFileError, PolicyError } from '../../main/llm/errors'
import { LlamaRuntime, type LoadedModel } from '../../main/llm/llama-runtime'
import { createPolicy, disposeModelCache, modelCacheFor } from '../../main/policy/llm-policy'
import { fixtureDir, STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama, writeTinyLoraAdapter } from '../helpers/gguf'
import { stepwiseLogprobs } from '../helpers/gguf/reference'

const CHATML = "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"

const tmp = fixtureDir()
let runtime: LlamaRuntime

beforeAll(async () => {
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
}, 600_000)
afterAll(async () => {
  await disposeModelCache(runtime)
  await runtime?.dispose()
  tmp.cleanup()
})

const QUESTION = 'What is the capital of France?'
const EVIDENCE = ['Paris is the capital and largest city of France.', 'France is a country in Western Europe.']
const ITEMS = [
  { question: QUESTION, evidence: EVIDENCE, answer: 'Paris' },
  { question: QUESTION, evidence: EVIDENCE, answer: 'the city of Lyon' },
  { question: QUESTION, evidence: EVIDENCE.slice(0, 1), answer: 'Paris' },
  { question: 'Who was born first?', evidence: ['Alice was born in 1950.', 'Bob was born in 1961.'], answer: 'Alice' },
  { question: 'Who was born first?', evidence: ['Bob was born in 1961.'], answer: 'Bob, in 1961' },
  { question: 'Is it big?', evidence: [], answer: 'yes' },
]


describe.each([
  { label: 'plain prompt (spm)', vocab: 'spm' as const, template: undefined },
  { label: 'ChatML template (bpe)', vocab: 'bpe' as const, template: CHATML },
])('GgufAnswerer, $label', ({ vocab, template }) => {
  let path: string
  beforeAll(() => {
    path = writeTinyLlama(join(tmp.dir, `answerer-${vocab}.gguf`), { vocab, seed: 17, chatTemplate: template, contextLength: 1024 }).file
  })

  it('scores the mean teacher-forced log-probability of the answer tokens', async () => {
    const answerer = await createAnswerer({ kind: 'gguf', modelPath: path, contextSize: 1024, sequences: 1 }, runtime) as GgufAnswerer
    expect(answerer).toBeInstanceOf(GgufAnswerer)
    expect(answerer.lexical).toBe(false)
    expect(answerer.name).toMatch(new RegExp(`^answerer-${vocab}\\.gguf@[0-9a-f]{12}$`))
    expect(answerer.template).toBe(template ? 'ChatML' : 'plain')
    const reference = await runtime.loadModel(path)
    for (const item of ITEMS.slice(0, 4)) {
      const detail = await answerer.scoreDetailed(item.question, item.evidence, item.answer)
      // Flash attention off, as in the answerer's contexts: with it on, results depend on KV-cache placement by ~1e-4.
      const steps = await stepwiseLogprobs(await reference.model.createContext({ contextSize: 1024, threads: 1, flashAttention: false }), detail.promptTokens, detail.targetTokens)
      const mean = steps.reduce((a, b) => a + b, 0) / steps.length
      expect(Math.abs(detail.mean - mean)).toBeLessThan(1e-4)
      detail.tokenLogprobs.forEach((lp, i) => expect(Math.abs(lp - steps[i]!)).toBeLessThan(1e-4))
      expect(await answerer.score(item.question, item.evidence, item.answer)).toBe(detail.mean)
      // The target is the answer and nothing else.
      expect(reference.model.detokenize(detail.targetTokens, false, detail.promptTokens.slice(-4)).trim()).toBe(item.answer)
      expect(detail.evidenceUsed).toBe(new Set(item.evidence).size)
    }
    await reference.dispose()
    await expect(answerer.score(QUESTION, EVIDENCE, '  ')).rejects.toMatchObject({ code: 'invalid-input' })
    await answerer.dispose()
  })

  it('caches by (question, evidence set, answer) and counts hits', async () => {
    const answerer = await createAnswerer({ kind: 'gguf', modelPath: path, contextSize: 1024, sequences: 2 }, runtime) as GgufAnswerer
    const first = await answerer.score(QUESTION, EVIDENCE, 'Paris')
    expect(answerer.stats).toMatchObject({ scored: 1, cacheHits: 0 })
    // The same evidence in another order, duplicated, or with stray whitespace is the same set.
    expect(await answerer.score(QUESTION, [...EVIDENCE].reverse(), 'Paris')).toBe(first)
    expect(await answerer.score(QUESTION, [EVIDENCE[1]!, ` ${EVIDENCE[0]!}`, EVIDENCE[1]!], 'Paris ')).toBe(first)
    expect(answerer.stats).toMatchObject({ scored: 1, cacheHits: 2 })
    // Concurrent identical requests share one pass.
    const same = await Promise.all([1, 2, 3].map(() => answerer.score(QUESTION, EVIDENCE, 'Lyon')))
    expect(new Set(same).size).toBe(1)
    expect(answerer.stats).toMatchObject({ scored: 2, cacheHits: 4 })
    expect((await answerer.scoreDetailed(QUESTION, EVIDENCE, 'Lyon')).cached).toBe(true)
    answerer.clearCache()
    expect(await answerer.score(QUESTION, EVIDENCE, 'Paris')).toBe(first)
    expect(answerer.stats.scored).toBe(3)
    // 'given' order keeps the caller's sequence, so the prompt (and the score) changes with it.
    const ordered = await createAnswerer({ kind: 'gguf', modelPath: path, contextSize: 1024, sequences: 2, evidenceOrder: 'given' }, runtime) as GgufAnswerer
    const [a, b] = await Promise.all([ordered.scoreDetailed(QUESTION, EVIDENCE, 'Paris'), ordered.scoreDetailed(QUESTION, [...EVIDENCE].reverse(), 'Paris')])
    expect(a!.promptTokens).not.toEqual(b!.promptTokens)
    await ordered.dispose()
    await answerer.dispose()
  })

  it('gives the same scores and answers on parallel sequences as sequentially', async () => {
    // Batched and single-sequence evaluation differ by ~1e-5 in llama.cpp, so near-ties can flip. A
    // sharper output layer makes them rare, yet keeps log-probs finite for the reference below.
    const peaky = writeTinyLlama(join(tmp.dir, `answerer-peaky-${vocab}.gguf`), { vocab, seed: 17, chatTemplate: template, contextLength: 1024, logitScale: 8 }).file
    const sequential = await createAnswerer({ kind: 'gguf', modelPath: peaky, contextSize: 1024, sequences: 1 }, runtime) as GgufAnswerer
    const parallel = await createAnswerer({ kind: 'gguf', modelPath: peaky, contextSize: 1024, sequences: 4 }, runtime) as GgufAnswerer
    // Both contexts live on one loaded model.
    expect(modelCacheFor(runtime).entries().find((e) => e.path === peaky)?.contexts).toHaveLength(2)
    const one: number[] = []
    for (const item of ITEMS) one.push(await sequential.score(item.question, item.evidence, item.answer))
    const many = await parallel.scoreBatch(ITEMS)
    many.forEach((score, i) => expect(Math.abs(score - one[i]!)).toBeLessThan(1e-4))
    const answersOne: string[] = []
    for (const item of ITEMS) answersOne.push(await sequential.answer(item.question, item.evidence))
    const answersMany = await Promise.all(ITEMS.map((item) => parallel.answer(item.question, item.evidence)))
    expect(parallel.stats.answered).toBe(ITEMS.length)
    // Token for token, the two decodings agree until a step where the two chosen tokens are a near-tie
    // under an independent single-sequence reference (batching noise can flip those, even on a peaky
    // model, because the grammar may mask the peak). A token from another sequence is no near-tie.
    const oneDetails = []
    for (const item of ITEMS) oneDetails.push(await sequential.answerDetailed(item.question, item.evidence))
    // Several rounds: a race between sequences (main/llm/serial-sampling.ts) showed in ~1-2% of generations.
    const rounds: AnswerDetail[][] = []
    for (let round = 0; round < 8; round++) rounds.push(await Promise.all(ITEMS.map((item) => parallel.answerDetailed(item.question, item.evidence))))
    const reference = await runtime.loadModel(peaky)
    let identical = 0
    for (const [i, many] of rounds.flatMap((round) => round.map((detail, item) => [item, detail] as const))) {
      const one = oneDetails[i]!
      expect(many.promptTokens).toEqual(one.promptTokens)
      const at = one.tokens.findIndex((token, k) => many.tokens[k] !== token)
      if (at === -1 && many.tokens.length === one.tokens.length) {
        expect(many.text).toBe(one.text)
        identical++
        continue
      }
      // Where one decoding is a prefix of the other, the shorter one chose the end token there.
      const k = at === -1 ? Math.min(one.tokens.length, many.tokens.length) : at
      const eos = reference.model.tokens.eos!
      const prefix = [...one.promptTokens, ...one.tokens.slice(0, k)]
      const [a] = await stepwiseLogprobs(await reference.model.createContext({ contextSize: 1024, threads: 1, flashAttention: false }), prefix, [one.tokens[k] ?? eos])
      const [b] = await stepwiseLogprobs(await reference.model.createContext({ contextSize: 1024, threads: 1, flashAttention: false }), prefix, [many.tokens[k] ?? eos])
      expect(Math.abs(a! - b!), `item ${i} diverges at token ${k}`).toBeLessThan(0.05)
    }
    await reference.dispose()
    // Near-ties are rare: most answers match exactly.
    expect(identical).toBeGreaterThanOrEqual(rounds.length * (ITEMS.length - 2))
    for (const answer of answersOne) {
      expect(answer).not.toMatch(/[\n\r]/)
      expect(answer).toBe(answer.trim())
      expect(answer.length).toBeGreaterThan(0)
    }
    await sequential.dispose()
    await parallel.dispose()
    expect(modelCacheFor(runtime).entries().find((e) => e.path === peaky)).toBeUndefined()
  })

  it('drops evidence that does not fit the context and says so', async () => {
    const answerer = await createAnswerer({ kind: 'gguf', modelPath: path, contextSize: 256, sequences: 1 }, runtime) as GgufAnswerer
    const evidence = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something about the capital.`)
    const detail = await answerer.scoreDetailed(QUESTION, evidence, 'Paris')
    expect(detail.evidenceUsed).toBeLessThan(40)
    expect(detail.promptTokens.length + detail.targetTokens.length).toBeLessThanOrEqual(256 + 256)
    expect(answerer.stats.evidenceDropped).toBe(40 - detail.evidenceUsed)
    expect((await answerer.answer(QUESTION, evidence)).length).toBeGreaterThan(0)
    await answerer.dispose()
    await expect(answerer.score(QUESTION, evidence, 'Paris')).rejects.toMatchObject({ code: 'disposed' })
  })
})

describe('GgufAnswerer on stories260K', () => {
  it.skipIf(!storiesAvailable)(storiesTitle('a plausible answer given matching evidence beats an implausible one'), async () => {
    const answerer = await createAnswerer({ kind: 'gguf', modelPath: STORIES_260K, contextSize: 512, sequences: 2 }, runtime) as GgufAnswerer
    expect(answerer.name).toBe('stories260K.gguf@270cba1bd510')
    const question = 'What did Lily have?'
    const evidence = ['Once upon a time, there was a little girl named Lily.', 'Lily had a big red ball. She liked to play with it in the park.']
    const [plausible, implausible, scrambled] = await answerer.scoreBatch([
      { question, evidence, answer: 'a big red ball' },
      { question, evidence, answer: 'a purple spaceship engine' },
      { question, evidence, answer: 'ball red big a' },
    ])
    expect(plausible).toBeGreaterThan(implausible!)
    expect(plausible).toBeGreaterThan(scrambled!)
    const answer = await answerer.answer(question, evidence)
    expect(answer.length).toBeGreaterThan(0)
    expect(answer).not.toContain('\n')
    await answerer.dispose()
  })
})

describe('bad model files give typed errors', () => {
  const good = writeTinyLlama(join(tmp.dir, 'good.gguf'), { layers: 1 })

  it('a text file, a truncated GGUF, a LoRA adapter and a missing file', async () => {
    writeFileSync(join(tmp.dir, 'notes.gguf'), 'These are my notes, not a model.\n')
    writeFileSync(join(tmp.dir, 'cut.gguf'), readFileSync(good.file).subarray(0, 2000))
    const adapter = writeTinyLoraAdapter(join(tmp.dir, 'adapter.gguf'), { layers: 1 }).file
    const cases: Array<[string, string, boolean]> = [
      [join(tmp.dir, 'notes.gguf'), 'not-gguf', true],
      [join(tmp.dir, 'cut.gguf'), 'truncated', true],
      [join(tmp.dir, 'missing.gguf'), 'file-not-found', true],
      [adapter, 'not-a-model', false],
    ]
    for (const [path, code, fileError] of cases) {
      for (const make of [
        () => createPolicy({ kind: 'llm-menu', modelPath: path }, runtime),
        () => createPolicy({ kind: 'llm-tools', modelPath: path }, runtime),
        () => createAnswerer({ kind: 'gguf', modelPath: path }, runtime),
      ]) {
        const error = await make().then(() => null, (e: unknown) => e)
        expect(error, `${path}`).toBeInstanceOf(PolicyError)
        expect((error as PolicyError).code).toBe(code)
        expect(error instanceof ModelFileError).toBe(fileError)
        expect((error as PolicyError).message.length).toBeGreaterThan(20)
      }
    }
    // Nothing was left loaded by the failures.
    expect(modelCacheFor(runtime).entries().filter((e) => cases.some(([path]) => e.path === path))).toEqual([])
  })

  it('an unknown answerer kind', async () => {
    await expect(createAnswerer({ kind: 'oracle' } as never)).rejects.toMatchObject({ code: 'invalid-input' })
    expect(await createAnswerer({ kind: 'lexical' })).toBeInstanceOf(LexicalAnswerer)
  })
})
