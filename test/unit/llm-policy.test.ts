import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActionSpace, EnvQuestion, Observation } from '../../main/harness/types'
import { LlamaRuntime } from '../../main/llm/llama-runtime'
import {
  createPolicy, disposeModelCache, EpisodeSeeds, menuPromptBody, mixSeeds, modelCacheFor, MenuLlmPolicy, resolveSampling,
  type LlmDecision, type LlmPolicy,
} from '../../main/policy/llm-policy'
import { cutMiddle, fitBody, PromptRenderer } from '../../main/policy/prompt'
import { fixtureDir, writeTinyLlama } from '../helpers/gguf'

const CHATML = "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
/** A template no specialised wrapper matches, so node-llama-cpp renders the Jinja itself. */
const CUSTOM = "{{ bos_token }}{% for m in messages %}### {{ m['role'] }}: {{ m['content'] }}\\n{% endfor %}{% if add_generation_prompt %}### assistant: {% endif %}"

const tmp = fixtureDir()
let runtime: LlamaRuntime
const QUESTION: EnvQuestion = { id: 'q1', question: 'Which city is the capital of France?', answers: ['Paris'], supportingFacts: [], supportingDocs: [] }
const MENU: ActionSpace = {
  kind: 'menu',
  items: [
    { id: 'S1', type: 'SELECT', label: 'Paris is the capital of France.' },
    { id: 'S12', type: 'SELECT', label: 'France is in Europe.' },
    { id: 'L3', type: 'LOOKUP', label: 'Paris' },
    { id: 'W1', type: 'ANSWER_WITH', label: 'Paris is the capital of France.' },
    { id: 'A', type: 'ANSWER', label: 'stop and answer' },
  ],
}
const OBSERVATION: Observation = {
  text: 'Question: Which city is the capital of France?\nCommitted evidence: none\nMenu:\nS1 SELECT Paris is the capital of France.\nS12 SELECT France is in Europe.\nL3 LOOKUP Paris\nW1 ANSWER_WITH Paris is the capital of France.\nA ANSWER',
  data: {},
}
const IDS = MENU.kind === 'menu' ? MENU.items.map((i) => i.id) : []

beforeAll(async () => {
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
}, 600_000)
afterAll(async () => {
  await disposeModelCache(runtime)
  await runtime?.dispose()
  tmp.cleanup()
})

describe('sampling and seeds', () => {
  it('validates settings and derives distinct, reproducible step seeds', () => {
    expect(resolveSampling()).toEqual({ temperature: 0, topK: 0, topP: 1, minP: 0, seed: 0 })
    expect(() => resolveSampling({ temperature: -1 })).toThrow(/temperature/)
    expect(() => resolveSampling({ topP: 0 })).toThrow(/topP/)
    expect(() => resolveSampling({ topK: 1.5 })).toThrow(/topK/)
    const a = new EpisodeSeeds(7)
    const b = new EpisodeSeeds(7)
    expect(() => a.next('p')).toThrow(/reset/)
    a.reset(11)
    b.reset(11)
    const first = [a.next('p'), a.next('p'), a.next('p')]
    expect([b.next('p'), b.next('p'), b.next('p')]).toEqual(first)
    expect(new Set(first.map((s) => s.seed)).size).toBe(3)
    for (const s of first) expect(s.seed).toBeGreaterThanOrEqual(0)
    for (const s of first) expect(s.seed).toBeLessThan(2 ** 31)
    expect(mixSeeds(1, 2)).not.toBe(mixSeeds(2, 1))
    expect(mixSeeds(2 ** 40, 1)).not.toBe(mixSeeds(2 ** 41, 1))
  })
})

describe('prompt rendering', () => {
  it('uses the model chat template when the GGUF has one and a plain layout otherwise', async () => {
    const cases = [
      { name: 'none', template: undefined, expected: 'plain' },
      { name: 'chatml', template: CHATML, expected: 'ChatML' },
      { name: 'custom', template: CUSTOM, expected: 'JinjaTemplate' },
    ]
    for (const c of cases) {
      const loaded = await runtime.loadModel(writeTinyLlama(join(tmp.dir, `render-${c.name}.gguf`), { chatTemplate: c.template }).file)
      const renderer = new PromptRenderer(loaded.model)
      expect(renderer.template).toBe(c.expected)
      const prompt = renderer.render({ system: 'SYSTEM TEXT', user: 'OBSERVATION TEXT', cue: 'Action id:\n' })
      expect(prompt.text).toContain('SYSTEM TEXT')
      expect(prompt.text).toContain('OBSERVATION TEXT')
      if (c.expected === 'plain') {
        expect(prompt.text.endsWith('OBSERVATION TEXT\n\nAction id:\n')).toBe(true)
        expect(prompt.stopTriggers).toEqual(['\n\n'])
      } else if (c.expected === 'ChatML') {
        expect(prompt.text.endsWith('<|im_start|>assistant\n')).toBe(true)
        expect(prompt.stopTriggers).toContain('<|im_end|>')
      } else {
        expect(prompt.text.endsWith('### assistant: ')).toBe(true)
      }
      // The template can be bypassed for a base-model comparison.
      expect(new PromptRenderer(loaded.model, 'plain').template).toBe('plain')
      // Prompt and continuation split where the prompt's own tokens end.
      const split = renderer.split(prompt, 'paris')
      expect(split.prompt).toEqual(prompt.tokens)
      expect(loaded.model.detokenize(split.target, false, split.prompt.slice(-4)).trim()).toBe('paris')
      await loaded.dispose()
    }
  })

  it('cuts the middle of an observation that does not fit, keeping head and tail', async () => {
    expect(cutMiddle('abcdefghij', 20)).toBe('abcdefghij')
    const cut = cutMiddle('HEAD'.padEnd(400, '.') + 'TAIL', 100)
    expect(cut.startsWith('HEAD')).toBe(true)
    expect(cut.endsWith('TAIL')).toBe(true)
    expect(cut).toMatch(/omitted to fit the context/)
    const loaded = await runtime.loadModel(writeTinyLlama(join(tmp.dir, 'fit.gguf')).file)
    const renderer = new PromptRenderer(loaded.model)
    const body = `Question: first line\n${'lorem ipsum dolor '.repeat(200)}\nMenu: S1 A`
    const fitted = fitBody(body, 300, (text) => renderer.render({ system: 'sys', user: text, cue: 'Action id:\n' }))
    expect(fitted.prompt.tokens.length).toBeLessThanOrEqual(300)
    expect(fitted.cutChars).toBeGreaterThan(0)
    expect(fitted.prompt.text).toContain('Question: first line')
    expect(fitted.prompt.text).toContain('Menu: S1 A')
    expect(() => fitBody(body, 3, (text) => renderer.render({ system: 'sys', user: text, cue: '' }))).toThrow(/context size/)
    await loaded.dispose()
  })

  it('appends the menu when the observation does not list every id', () => {
    expect(menuPromptBody(OBSERVATION.text, MENU.kind === 'menu' ? MENU.items : [])).toBe(OBSERVATION.text)
    const body = menuPromptBody('Question: q', [{ id: 'S1', type: 'SELECT', label: 'a sentence' }, { id: 'A', type: 'ANSWER', label: 'stop' }])
    expect(body).toBe('Question: q\n\nMenu:\nS1: a sentence\nA: stop')
  })
})

describe.each([
  { vocab: 'spm' as const, template: undefined, label: 'no chat template' },
  { vocab: 'spm' as const, template: CHATML, label: 'ChatML template' },
  { vocab: 'bpe' as const, template: CUSTOM, label: 'custom Jinja template' },
])('MenuLlmPolicy on a tiny $vocab model, $label', ({ vocab, template, label }) => {
  let path: string
  beforeAll(() => {
    path = writeTinyLlama(join(tmp.dir, `menu-${vocab}-${label.replace(/\W+/g, '-')}.gguf`), { vocab, seed: 5, chatTemplate: template, contextLength: 2048 }).file
  })

  it('always answers with one of the available ids, across seeds and temperatures', async () => {
    const seen = new Set<string>()
    for (const temperature of [0, 0.7, 1.5, 4]) {
      const policy = await createPolicy({ kind: 'llm-menu', modelPath: path, sampling: { temperature, seed: 1 }, contextSize: 1024, sequences: 2 }, runtime)
      expect(policy).toBeInstanceOf(MenuLlmPolicy)
      expect(policy.template).toBe(template === undefined ? 'plain' : template === CHATML ? 'ChatML' : 'JinjaTemplate')
      for (let episode = 0; episode < 6; episode++) {
        policy.reset({ seed: episode, question: QUESTION })
        for (let step = 0; step < 2; step++) {
          const decision = await policy.act(OBSERVATION, MENU)
          expect(decision.action.kind).toBe('menu')
          const id = (decision.action as { id: string }).id
          expect(IDS).toContain(id)
          expect(decision.raw).toBe(id)
          expect(decision.logprob).toBeLessThanOrEqual(1e-6)
          expect(Number.isFinite(decision.logprob)).toBe(true)
          expect(decision.logprob).toBeCloseTo(decision.tokenLogprobs.reduce((a, b) => a + b, 0), 10)
          expect(decision.tokens).toBe(decision.tokenLogprobs.length)
          expect(decision.tokens).toBeGreaterThan(0)
          expect(decision.ms).toBeGreaterThan(0)
          expect(decision.promptTokens).toBeGreaterThan(10)
          expect(decision.step).toBe(step)
          expect(decision.cutChars).toBe(0)
          seen.add(id)
        }
      }
      await policy.dispose()
    }
    // High temperatures explore the menu.
    expect(seen.size).toBeGreaterThan(1)
  })

  it('replays an episode exactly from its seeds, also when rollouts share the context concurrently', async () => {
    const spec = { kind: 'llm-menu' as const, modelPath: path, sampling: { temperature: 1.5, seed: 42 }, contextSize: 1024, sequences: 4 }
    const run = async (policy: LlmPolicy, seed: number): Promise<Array<{ id: string; logprob: number; tokens: number }>> => {
      policy.reset({ seed, question: QUESTION })
      const out: Array<{ id: string; logprob: number; tokens: number }> = []
      for (let i = 0; i < 5; i++) {
        const d = (await policy.act(OBSERVATION, MENU)) as LlmDecision
        out.push({ id: (d.action as { id: string }).id, logprob: d.logprob, tokens: d.tokens })
      }
      return out
    }
    const ids = (runs: Array<Array<{ id: string }>>): string[][] => runs.map((r) => r.map((d) => d.id))
    const solo = await createPolicy(spec, runtime)
    const sequential = [await run(solo, 1), await run(solo, 2), await run(solo, 3), await run(solo, 4)]
    // Four rollouts at once on one model and one context, each its own policy instance.
    const group = await Promise.all([1, 2, 3, 4].map(() => createPolicy(spec, runtime)))
    expect(modelCacheFor(runtime).entries().find((e) => e.path === path)?.contexts).toEqual([{ sequences: 4, contextSize: 1024, flashAttention: false, leases: 5 }])
    const parallel = await Promise.all(group.map((p, i) => run(p, i + 1)))
    expect(ids(parallel)).toEqual(ids(sequential))
    // Same log-probabilities too (flash attention is off by default, see PoolOptions.flashAttention) when the id
    // was generated through the same tokens. Batched evaluation differs from single-sequence evaluation by
    // kernel rounding, which at temperature 1.5 can, rarely, move a sampling draw across a boundary between
    // two tokenisations of the same id ("S1"+"2" vs "S"+"12"): then the sums differ legitimately.
    parallel.forEach((r, i) =>
      r.forEach((d, j) => {
        if (d.tokens === sequential[i]![j]!.tokens) expect(Math.abs(d.logprob - sequential[i]![j]!.logprob)).toBeLessThan(1e-4)
      }),
    )
    // Other episode seeds take other paths.
    const others = ids([await run(solo, 99), await run(solo, 100), await run(solo, 101)])
    expect(others.some((o) => JSON.stringify(o) !== JSON.stringify(ids(sequential)[0]))).toBe(true)
    for (const p of [solo, ...group]) await p.dispose()
    expect(modelCacheFor(runtime).entries().find((e) => e.path === path)).toBeUndefined()
  })
})

describe('MenuLlmPolicy misuse', () => {
  it('rejects tool spaces, empty menus and act() before reset(), and cuts oversized observations', async () => {
    const path = writeTinyLlama(join(tmp.dir, 'misuse.gguf'), { seed: 9, contextLength: 2048 }).file
    const policy = await createPolicy({ kind: 'llm-menu', modelPath: path, contextSize: 384, sequences: 1 }, runtime)
    await expect(policy.act(OBSERVATION, MENU)).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/reset/) })
    policy.reset({ seed: 0, question: QUESTION })
    await expect(policy.act(OBSERVATION, { kind: 'tools', tools: [] })).rejects.toMatchObject({ code: 'invalid-input' })
    await expect(policy.act(OBSERVATION, { kind: 'menu', items: [] })).rejects.toMatchObject({ code: 'invalid-input' })
    const long = { text: `Question: q\n${'filler text '.repeat(400)}\n${OBSERVATION.text}`, data: {} }
    const decision = await policy.act(long, MENU)
    expect(IDS).toContain((decision.action as { id: string }).id)
    expect(decision.cutChars).toBeGreaterThan(0)
    // llama.cpp may round the context up; the prompt fits what it actually got, with room for the id.
    expect(decision.promptTokens).toBeLessThanOrEqual(policy.contextSize - 4)
    await expect(createPolicy({ kind: 'nope' as never, modelPath: path }, runtime)).rejects.toMatchObject({ code: 'invalid-input' })
    await policy.dispose()
    await expect(policy.act(OBSERVATION, MENU)).rejects.toMatchObject({ code: 'disposed' })
  })
})
