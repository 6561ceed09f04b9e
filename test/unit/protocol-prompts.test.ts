/**
 * One system prompt per protocol (main/harness/protocols.ts: systemPrompt): for every environment, with a
 * config that is not its default, the prompt the environment server opens an episode with, the one the
 * SFT export writes for the stored episode, and the one an LLM policy (a real tiny GGUF, created the way an
 * evaluation creates it) sends at the same state are the same text, and it carries the run's own settings
 * (the free query's maxQueryChars). Also: the policy side's table fits the contract's capabilities.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creditFits, PolicySpec, PROTOCOL_NAMES, protocolCapabilities, protocolTrainingDefaults } from '../../preload/contract'
import { EpisodeRouter } from '../../main/env-server/router'
import { policyFor } from '../../main/experiments/factories'
import { QuestionLookup } from '../../main/env-server/questions'
import { writeExport } from '../../main/exports'
import { createEnvironment, environmentContext, environmentNames, protocolDeclaration, type ActionSpace } from '../../main/harness'
import { LlamaRuntime } from '../../main/llm/llama-runtime'
import { disposeModelCache, type LlmPolicy } from '../../main/policy/llm-policy'
import { candidateBuilder, HEAD_PROTOCOLS, policySide } from '../../main/policy/protocols'
import { creditNames, creditSchemes } from '../../main/rl/credit'
import { estimators } from '../../main/rl/estimators'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { fixtureDir, writeTinyLlama } from '../helpers/gguf'
import { z } from 'zod'

/** A config off each environment's defaults, touching what its prompt or tools read. */
const CONFIGS: Record<string, Record<string, unknown>> = {
  'graph-menu': { turnLimit: 5 },
  'free-query': { maxQueryChars: 57, turnLimit: 5 },
  stateful: { verification: false, maxTurns: 5 },
  transcript: { reviewDocs: false, maxTurns: 5 },
}

/** A valid first action that ends the episode: ANSWER (menu id A, or the free query's answer tool), or Harness-1's end_search. */
const FINISHING: Record<string, object> = {
  'graph-menu': { menu_id: 'A' },
  'free-query': { tool_call: { name: 'answer', arguments: {} } },
  stateful: { tool_call: { name: 'end_search', arguments: { reasoning: 'enough' } } },
  transcript: { tool_call: { name: 'end_search', arguments: { reasoning: 'enough' } } },
}

const Created = z.looseObject({ episode_id: z.string(), question: z.object({ id: z.number() }), messages: z.array(z.object({ role: z.string(), content: z.string() })) })
const Finished = z.looseObject({ stored_run_id: z.number().nullable() })
const SftLine = z.object({ messages: z.array(z.object({ role: z.string(), content: z.string() })), metadata: z.looseObject({ environment: z.string(), t: z.number() }) })

const tmp = fixtureDir('harness-lab-prompts-')
let demo: DemoWorkspace
let runtime: LlamaRuntime
let modelPath: string

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.3)
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
  modelPath = writeTinyLlama(join(tmp.dir, 'prompts.gguf'), { vocab: 'bpe', seed: 3, contextLength: 4096 }).file
}, 600_000)
afterAll(async () => {
  await disposeModelCache(runtime)
  await runtime?.dispose()
  await demo?.close()
  tmp.cleanup()
})

describe('one system prompt for the environment server, the SFT export and the LLM policies', () => {
  it('covers every registered environment', () => {
    expect(Object.keys(CONFIGS).sort()).toEqual(environmentNames())
  })

  it.each(Object.keys(CONFIGS))('%s, with a config off its defaults', async (environment) => {
    const config = CONFIGS[environment]!
    const router = await EpisodeRouter.start({ raw: demo.db.raw, appVersion: 'test', workers: 0, store: { mode: 'all' } })
    let server: string
    let runId: number
    let questionId: number
    try {
      const created = (await router.create({ environment, set: 1, index: 0, seed: 3, config })).parse(Created)
      server = created.messages.find((m) => m.role === 'system')!.content
      questionId = created.question.id
      await router.step(created.episode_id, FINISHING[environment] as never)
      const finished = Finished.parse(await router.finish(created.episode_id, {}))
      expect(finished.stored_run_id).not.toBeNull()
      runId = finished.stored_run_id!
    } finally {
      await router.close()
    }

    // The SFT export of the stored episode: its first step's system message.
    const file = join(tmp.dir, `${environment}.jsonl`)
    await writeExport(demo.db.raw, { source: 'run', runId, format: 'run-sft-jsonl' }, file)
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => SftLine.parse(JSON.parse(l)))
    const first = lines.find((l) => l.metadata.t === 0)!
    const sft = first.messages.find((m) => m.role === 'system')!.content

    // The LLM policy an evaluation of this environment with this config plays, at the episode's first state.
    const question = new QuestionLookup(demo.db.raw).byId(questionId)
    const env = createEnvironment(environment, environmentContext(demo.db.raw), config)
    await env.reset(question, 3)
    const actions: ActionSpace = env.actions()
    const policy = await policyFor(PolicySpec.parse({ kind: 'llm', modelPath }), environment, demo.db.raw, config, async () => runtime)
    let llm: string
    try {
      llm = (policy.value as LlmPolicy).systemPromptAt(actions)
    } finally {
      await policy.dispose()
    }

    expect(sft).toBe(server)
    expect(llm).toBe(server)
    if (actions.kind === 'tools') expect(server).toContain(`- ${actions.tools[0]!.name} `)
    if (environment === 'free-query') expect(server).toContain('Queries have at most 57 characters.')
    // The tools block lists the tools this config offers, not the defaults'.
    if (environment === 'stateful') expect(server).not.toContain('- verify ')
  }, 600_000)
})

describe('the policy side of each protocol', () => {
  it('gives every protocol registered training defaults whose credit fits its capabilities and whose teacher speaks it', () => {
    for (const protocol of PROTOCOL_NAMES) {
      const { credit, estimator, warmStartTeacher } = protocolTrainingDefaults(protocol)
      expect(creditNames()).toContain(credit)
      expect(creditFits(creditSchemes.get(credit).capabilities, protocol), protocol).toBe(true)
      expect(() => estimators.get(estimator)).not.toThrow()
      if (warmStartTeacher !== null) expect(policySide(protocol).scripted as readonly string[], protocol).toContain(warmStartTeacher)
    }
  })

  it('declares a query tool exactly where the contract says the policy writes its queries', () => {
    for (const protocol of PROTOCOL_NAMES) expect(protocolDeclaration(protocol).queryTool !== null, protocol).toBe(protocolCapabilities(protocol).writesQueries)
  })

  it("hands out head candidates built for the protocol they are listed under", () => {
    for (const protocol of HEAD_PROTOCOLS) expect(candidateBuilder(protocol).protocol).toBe(protocol)
  })
})
