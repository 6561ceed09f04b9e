import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActionSpace, EnvQuestion, Observation, ToolSchema } from '../../main/harness/types'
import { LlamaRuntime } from '../../main/llm/llama-runtime'
import {
  buildToolCallGrammar, capQueryInAction, compileValidator, completedJsonEnd, createPolicy, disposeModelCache, parseToolCall,
  extractiveSearchTools, MAX_QUERY_WORDS, observedWords, toGrammarSchema, ToolLlmPolicy, type LlmDecision,
} from '../../main/policy/llm-policy'
import { patternToGbnf } from '../../main/policy/llm-policy/pattern-gbnf'
import { describeTools, typeSignature } from '../../main/harness'
import { fixtureDir, writeTinyLlama } from '../helpers/gguf'

const tmp = fixtureDir()
let runtime: LlamaRuntime
let modelPath: string
const QUESTION: EnvQuestion = { id: 'q1', question: 'Who directed the film?', answers: ['x'], supportingFacts: [], supportingDocs: [] }
const OBSERVATION: Observation = { text: 'Question: Who directed the film?\nCurated: none\nBudget: 10% of context used', data: {} }

/** The Harness-1 tool set, with the limits the design gives (at most 5 queries or documents per call). */
const HARNESS1_TOOLS: ToolSchema[] = [
  { name: 'fan_out_search', description: 'Run up to five searches at once.', parameters: { type: 'object', properties: { queries: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 24 }, minItems: 1, maxItems: 5 } }, required: ['queries'] } },
  { name: 'search_corpus', description: 'Search the corpus.', parameters: { type: 'object', properties: { query: { type: 'string', minLength: 1, maxLength: 24 } }, required: ['query'] } },
  { name: 'grep_corpus', description: 'Regex over chunk text.', parameters: { type: 'object', properties: { pattern: { type: 'string', minLength: 1, maxLength: 16 } }, required: ['pattern'] } },
  { name: 'read_document', description: 'Read a document in full.', parameters: { type: 'object', properties: { doc_id: { type: 'integer', minimum: 0, maximum: 40 } }, required: ['doc_id'] } },
  { name: 'curate', description: 'Add or remove curated documents.', parameters: { type: 'object', properties: { add_ids: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 40 }, maxItems: 3 }, remove_ids: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 40 }, maxItems: 3 }, importance: { enum: ['very_high', 'high', 'fair', 'low'] } }, required: ['add_ids', 'importance'] } },
  { name: 'verify', description: 'Check a claim against documents.', parameters: { type: 'object', properties: { doc_ids: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 40 }, minItems: 1, maxItems: 5 }, claim: { type: 'string', maxLength: 32 } }, required: ['doc_ids', 'claim'] } },
  { name: 'end_search', description: 'Stop searching.', parameters: { type: 'object', properties: { reasoning: { type: 'string', maxLength: 24 } }, required: ['reasoning'] } },
]

beforeAll(async () => {
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
  modelPath = writeTinyLlama(join(tmp.dir, 'tools.gguf'), { vocab: 'bpe', seed: 12, contextLength: 4096 }).file
}, 600_000)
afterAll(async () => {
  await disposeModelCache(runtime)
  await runtime?.dispose()
  tmp.cleanup()
})

describe('JSON schema to grammar schema', () => {
  it('keeps what node-llama-cpp can express and lists what it loosens or tightens', () => {
    const converted = toGrammarSchema({
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: 40, pattern: '^[a-z ]+$' },
        k: { type: 'integer', minimum: 1, maximum: 10 },
        score: { type: 'number', minimum: 0 },
        mode: { enum: ['bm25', 'dense'] },
        when: { type: 'string', format: 'date' },
        email: { type: 'string', format: 'email' },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 3 },
        either: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] },
        nullable: { type: ['integer', 'null'] },
        ref: { $ref: '#/$defs/name' },
        gone: false,
      },
      required: ['query', 'k', 'score', 'mode', 'when', 'email', 'tags', 'either', 'nullable', 'ref'],
      $defs: { name: { type: 'string', maxLength: 8 } },
    }, { defaultMaxStringLength: 100, defsPrefix: 'p_' })
    expect(converted.schema).toMatchObject({
      type: 'object',
      properties: {
        // The pattern goes into the grammar through a placeholder (see buildToolCallGrammar).
        query: { const: '__hl_pattern_p_0__' },
        k: { enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
        score: { type: 'number' },
        mode: { enum: ['bm25', 'dense'] },
        when: { type: 'string', format: 'date' },
        email: { type: 'string', maxLength: 100 },
        tags: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 3 },
        either: { oneOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] },
        nullable: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
        ref: { $ref: '#/$defs/p_name' },
      },
      $defs: { p_name: { type: 'string', maxLength: 8 } },
    })
    expect(Object.keys((converted.schema as { properties: object }).properties)).not.toContain('gone')
    expect(converted.loosened).toEqual(expect.arrayContaining([
      expect.stringMatching(/query: minLength\/maxLength beside a pattern/), expect.stringMatching(/score: minimum/), expect.stringMatching(/email: format email/),
      expect.stringMatching(/tags: uniqueItems/),
    ]))
    expect(converted.loosened.join('\n')).not.toMatch(/\.k:/)
    expect(converted.tightened).toEqual(expect.arrayContaining([expect.stringMatching(/email: at most 100/)]))
    expect(converted.patterns).toEqual([{ placeholder: '__hl_pattern_p_0__', gbnf: '"\\"" ( ( [a-z ]+ ) ) "\\""' }])
    expect(toGrammarSchema({ type: 'string', pattern: '^[a-z ]+$' }, { patterns: false }).loosened).toEqual(['$: pattern ^[a-z ]+$'])
  })

  it('expands optional properties into alternatives, since node-llama-cpp writes every listed one', () => {
    const few = toGrammarSchema({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'boolean' }, c: { type: 'null' } }, required: ['a'], additionalProperties: false })
    const shapes = (few.schema as unknown as { oneOf: Array<{ properties: object }> }).oneOf.map((o) => Object.keys(o.properties).join(','))
    expect(shapes).toEqual(['a,b,c', 'a,c', 'a,b', 'a'])
    expect(few.tightened).toEqual([])
    // The free-query answer tool: stop with {} or commit a sentence first with {"id": ...}.
    const answer = toGrammarSchema({ type: 'object', properties: { id: { type: 'string', pattern: '^[SW][0-9]+$' } }, additionalProperties: false })
    expect((answer.schema as unknown as { oneOf: Array<{ properties: object }> }).oneOf.map((o) => Object.keys(o.properties))).toEqual([['id'], []])
    const many = toGrammarSchema({ type: 'object', properties: Object.fromEntries('pqrstu'.split('').map((k) => [k, { type: 'integer' }])), minProperties: 1 })
    expect((many.schema as unknown as { properties?: object }).properties).toEqual(expect.objectContaining({ p: { type: 'integer' } }))
    expect(many.tightened).toEqual(['$: optional p, q, r, s, t, u written all together or not at all'])
    const one = toGrammarSchema({ type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] })
    expect(one.schema).toEqual({ type: 'object', properties: { x: { type: 'integer' } } })
  })

  it('spells out "any JSON" instead of letting node-llama-cpp read it as null', () => {
    expect(toGrammarSchema({ type: 'object', properties: { x: {} }, required: ['x'] }).schema).toMatchObject({ properties: { x: { oneOf: expect.any(Array) } } })
    expect(toGrammarSchema({ not: { type: 'string' } }).loosened).toEqual(['$: not'])
  })

  it('finds where a JSON value ends, ignoring brackets inside strings', () => {
    const json = '{"a": "}{", "b": [1, {"c": "\\"}"}]}'
    expect(completedJsonEnd(`${json}\n\n`)).toBe(json.length)
    expect(completedJsonEnd('[1, [2]] trailing')).toBe(8)
    expect(completedJsonEnd('{"a": [1, 2')).toBeNull()
    expect(completedJsonEnd('  ')).toBeNull()
  })

  it('validates arguments against the full schema with zod, falling back to the grammar version', () => {
    const exact = compileValidator({ type: 'object', properties: { q: { type: 'string', pattern: '^[a-z]+$' } }, required: ['q'] }, {})
    expect(exact.exact).toBe(true)
    expect(exact.validate({ q: 'abc' })).toBeNull()
    expect(exact.validate({ q: 'ABC' })).toMatch(/q: .*pattern/)
    expect(exact.validate({})).toMatch(/q:/)
    const loose = compileValidator({ not: { type: 'string' } }, { type: 'object', properties: { n: { type: 'integer' } } })
    expect(loose.exact).toBe(false)
    expect(loose.validate({ n: 2 })).toBeNull()
    expect(loose.validate({ n: 'x' })).not.toBeNull()
  })
})

describe('ToolLlmPolicy on a tiny model', () => {
  it('always writes a JSON call of an available tool whose arguments validate', async () => {
    const space: ActionSpace = { kind: 'tools', tools: HARNESS1_TOOLS }
    const names = new Set<string>()
    let valid = 0
    for (const temperature of [0, 1, 2.5]) {
      const policy = await createPolicy({ kind: 'llm-tools', modelPath, sampling: { temperature, seed: 3 }, contextSize: 4096, sequences: 2, maxTokens: 400 }, runtime)
      expect(policy).toBeInstanceOf(ToolLlmPolicy)
      for (let episode = 0; episode < 4; episode++) {
        policy.reset({ seed: episode, question: QUESTION })
        const decision = await policy.act(OBSERVATION, space)
        const call = JSON.parse(decision.raw) as { name: string; arguments: unknown }
        expect(HARNESS1_TOOLS.map((t) => t.name)).toContain(call.name)
        const tool = HARNESS1_TOOLS.find((t) => t.name === call.name)!
        const problem = compileValidator(tool.parameters, {}).validate(call.arguments)
        if (decision.formatError === undefined) {
          expect(problem).toBeNull()
          expect(decision.action).toEqual({ kind: 'tool', name: call.name, arguments: call.arguments })
          valid++
        } else {
          // llama.cpp's grammar counts a malformed UTF-8 sequence from this random byte-level model as
          // one character, JavaScript decodes it to several U+FFFD: only string lengths can fail this way.
          expect(decision.raw).toContain('\uFFFD')
          expect(decision.formatError).toMatch(/Too big: expected string/)
          expect(decision.action).toEqual({ kind: 'text', text: decision.raw.trim() })
        }
        expect(decision.logprob).toBeLessThan(0)
        expect(decision.logprob).toBeCloseTo(decision.tokenLogprobs.reduce((a, b) => a + b, 0), 8)
        expect(decision.tokens).toBe(decision.tokenLogprobs.length)
        names.add(call.name)
      }
      await policy.dispose()
    }
    expect(names.size).toBeGreaterThan(1)
    expect(valid).toBeGreaterThanOrEqual(10)
  })

  it('turns a call whose arguments fail validation into a text action with the reason', async () => {
    // A look-ahead is outside the pattern subset: the grammar admits any 8-character code and validation rejects the rest.
    const tools: ToolSchema[] = [{ name: 'read_document', description: 'Read one document by code.', parameters: { type: 'object', properties: { code: { type: 'string', minLength: 8, maxLength: 8, pattern: '^(?=DOC)[A-Z]{3}-[0-9]{4}$' } }, required: ['code'] } }]
    const policy = await createPolicy({ kind: 'llm-tools', modelPath, sampling: { temperature: 1, seed: 5 }, contextSize: 1024, sequences: 1 }, runtime) as ToolLlmPolicy
    const grammar = await policy.grammarFor(tools)
    expect(grammar.tools.get('read_document')!.loosened).toEqual(['$.code: pattern ^(?=DOC)[A-Z]{3}-[0-9]{4}$'])
    let rejected = 0
    for (let episode = 0; episode < 5; episode++) {
      policy.reset({ seed: episode, question: QUESTION })
      const decision = await policy.act(OBSERVATION, { kind: 'tools', tools })
      const call = JSON.parse(decision.raw) as { name: string; arguments: { code: string } }
      expect(call.name).toBe('read_document')
      if (/^(?=DOC)[A-Z]{3}-[0-9]{4}$/.test(call.arguments.code)) continue
      rejected++
      expect(decision.action).toEqual({ kind: 'text', text: decision.raw.trim() })
      expect(decision.formatError).toMatch(/read_document arguments: code: .*pattern/)
      expect(decision.tokens).toBeGreaterThan(0)
    }
    expect(rejected).toBeGreaterThan(0)
    // The same rule outside generation: a valid call passes, an unknown tool or broken JSON does not.
    expect(parseToolCall('{"name": "read_document", "arguments": {"code": "DOC-1234"}}', grammar).action).toEqual({ kind: 'tool', name: 'read_document', arguments: { code: 'DOC-1234' } })
    expect(parseToolCall('{"name": "other", "arguments": {}}', grammar).error).toMatch(/unknown tool/)
    expect(parseToolCall('{"name": "read_document", "argu', grammar)).toMatchObject({ action: { kind: 'text' }, error: expect.stringMatching(/JSON/) })
    await policy.dispose()
  })

  it('reports a call that runs out of tokens as text', async () => {
    const tools: ToolSchema[] = [{ name: 'note', description: 'Write a note.', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 200, maxLength: 300 } }, required: ['text'] } }]
    const policy = await createPolicy({ kind: 'llm-tools', modelPath, sampling: { temperature: 1, seed: 1 }, contextSize: 1024, sequences: 1, maxTokens: 24 }, runtime)
    policy.reset({ seed: 0, question: QUESTION })
    const decision = await policy.act(OBSERVATION, { kind: 'tools', tools })
    expect(decision.action.kind).toBe('text')
    expect(decision.formatError).toMatch(/did not finish within 24 tokens/)
    expect(decision.tokens).toBe(24)
    await policy.dispose()
  })

  it('builds one grammar that llama.cpp accepts for awkward schemas', async () => {
    const tools: ToolSchema[] = [
      { name: 'a', description: '', parameters: { type: 'object', properties: { x: { allOf: [{ type: 'object', properties: { y: { type: 'boolean' } } }, { type: 'object', properties: { z: { type: 'null' } } }] } } } },
      { name: 'b', description: '', parameters: { type: 'object', properties: { when: { type: 'string', format: 'date-time' }, n: { type: 'number', exclusiveMinimum: 0 } } } },
      { name: 'c', description: '', parameters: { type: 'object', properties: { tuple: { type: 'array', prefixItems: [{ type: 'integer' }, { const: 'k' }] }, node: { $ref: '#/definitions/node' } }, definitions: { node: { type: 'object', properties: { v: { type: 'integer', minimum: 0, maximum: 3 } } } } } },
      { name: 'd', description: '', parameters: { type: 'object', properties: {} } },
    ]
    const grammar = await buildToolCallGrammar(runtime.llama, tools)
    expect(grammar.grammar.grammar).toContain('root ::=')
    expect([...grammar.tools.keys()]).toEqual(['a', 'b', 'c', 'd'])
    expect(grammar.tools.get('b')!.loosened).toEqual(['$.n: exclusiveMinimum'])
    await expect(buildToolCallGrammar(runtime.llama, [tools[0]!, tools[0]!])).rejects.toMatchObject({ code: 'invalid-input' })
    // And the model writes calls under it that parse.
    const policy = await createPolicy({ kind: 'llm-tools', modelPath, sampling: { temperature: 1.2, seed: 8 }, contextSize: 2048, sequences: 1, maxTokens: 300 }, runtime)
    for (let episode = 0; episode < 4; episode++) {
      policy.reset({ seed: episode, question: QUESTION })
      const decision = await policy.act(OBSERVATION, { kind: 'tools', tools })
      expect(['a', 'b', 'c', 'd']).toContain((JSON.parse(decision.raw) as { name: string }).name)
    }
    await policy.dispose()
  })
})

describe('string patterns in the grammar', () => {
  it('turns the common regex subset into GBNF and refuses the rest', () => {
    expect(patternToGbnf('^S[0-9]+$')).toBe('( "S" [0-9]+ )')
    expect(patternToGbnf('^\\s*[dD]?\\d{1,15}\\s*$')).toBe('( [ ]* [dD]? [0-9]{1,15} [ ]* )')
    expect(patternToGbnf('^(?:yes|no)$')).toBe('( ( ( "y" "e" "s" ) | ( "n" "o" ) ) )')
    expect(patternToGbnf('^[^a-c]{2}\\.x?$')).toBe('( [^a-c"\\\\\\x00-\\x1F\\x7F]{2} "." "x"? )')
    // A quote or backslash in the pattern is written as its JSON escape.
    expect(patternToGbnf('^"\\\\$')).toBe('( "\\\\\\"" "\\\\\\\\" )')
    // Unanchored: the match may sit anywhere in the string.
    expect(patternToGbnf('ab')).toBe('[^"\\\\\\x00-\\x1F\\x7F]* ( "a" "b" ) [^"\\\\\\x00-\\x1F\\x7F]*')
    for (const unsupported of ['^(?=a)b$', '^\\bword$', '^(a)\\1$', '^a{3,1}$', '^[z-a]$', '^a**$', '^(ab$', '^a)$']) {
      expect(patternToGbnf(unsupported), unsupported).toBeNull()
    }
  })

  it('makes every generated id match its pattern (free-query and Harness-1 style ids)', async () => {
    const tools: ToolSchema[] = [
      { name: 'select', description: 'Commit a sentence by id.', parameters: { type: 'object', properties: { id: { type: 'string', pattern: '^S[0-9]+$' } }, required: ['id'], additionalProperties: false } },
      { name: 'answer', description: 'Stop, optionally committing a sentence.', parameters: { type: 'object', properties: { id: { type: 'string', pattern: '^[SW][0-9]+$' } }, additionalProperties: false } },
      { name: 'read_document', description: 'Read a document.', parameters: { type: 'object', properties: { doc_id: { type: 'string', pattern: '^\\s*[dD]?\\d{1,15}\\s*$' } }, required: ['doc_id'], additionalProperties: false } },
    ]
    const policy = await createPolicy({ kind: 'llm-tools', modelPath, sampling: { temperature: 1.5, seed: 4 }, contextSize: 2048, sequences: 1, maxTokens: 200 }, runtime) as ToolLlmPolicy
    const grammar = await policy.grammarFor(tools)
    for (const info of grammar.tools.values()) expect(info.loosened).toEqual([])
    expect(grammar.grammar.grammar).toContain('"S" [0-9]+')
    const seen = new Set<string>()
    for (let episode = 0; episode < 10; episode++) {
      policy.reset({ seed: episode, question: QUESTION })
      const decision = await policy.act(OBSERVATION, { kind: 'tools', tools })
      expect(decision.formatError).toBeUndefined()
      const action = decision.action as { kind: string; name: string; arguments: { id?: string; doc_id?: string } }
      expect(action.kind).toBe('tool')
      seen.add(action.name)
      if (action.name === 'select') expect(action.arguments.id).toMatch(/^S[0-9]+$/)
      if (action.name === 'answer' && action.arguments.id !== undefined) expect(action.arguments.id).toMatch(/^[SW][0-9]+$/)
      if (action.name === 'read_document') expect(action.arguments.doc_id).toMatch(/^\s*[dD]?\d{1,15}\s*$/)
    }
    expect(seen.size).toBeGreaterThan(1)
    // With patterns switched off the same tools fall back to validation.
    const loose = await buildToolCallGrammar(runtime.llama, tools, { patterns: false })
    expect(loose.tools.get('select')!.loosened).toEqual(['$.id: pattern ^S[0-9]+$'])
    await policy.dispose()
  })

  it('falls back to validation when llama.cpp refuses a pattern rule', async () => {
    const tools: ToolSchema[] = [{ name: 'pick', description: '', parameters: { type: 'object', properties: { v: { type: 'string', pattern: '^(a|)$' } }, required: ['v'] } }]
    const grammar = await buildToolCallGrammar(runtime.llama, tools)
    // Either the empty branch is accepted (exact) or the grammar was rebuilt with the pattern loosened.
    const loosened = grammar.tools.get('pick')!.loosened
    expect(loosened.length === 0 ? grammar.grammar.grammar : loosened[0]).toMatch(/"a"|pattern/)
  })
})

describe('free-query mode', () => {
  const SEARCH: ToolSchema[] = [
    { name: 'search', description: 'Retrieve sentences for a query.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    { name: 'answer', description: 'Stop and answer.', parameters: { type: 'object', properties: {} } },
  ]

  it('caps the query in the grammar and names the mode', async () => {
    const policy = await createPolicy({ kind: 'llm-free-query', modelPath, sampling: { temperature: 1.5, seed: 2 }, contextSize: 1024, sequences: 2, maxQueryChars: 12 }, runtime)
    expect(policy.name).toMatch(/^llm-free-query:tools\.gguf@[0-9a-f]{12}$/)
    const grammar = await (policy as ToolLlmPolicy).grammarFor(SEARCH)
    expect(grammar.grammar.grammar).toMatch(/\{1,12\}/)
    for (let episode = 0; episode < 6; episode++) {
      policy.reset({ seed: episode, question: QUESTION })
      // Only the search tool, so that every call exercises the cap.
      const decision = (await policy.act(OBSERVATION, { kind: 'tools', tools: [SEARCH[0]!] })) as LlmDecision
      expect(decision.action.kind).toBe('tool')
      const action = decision.action as { name: string; arguments: { query: string } }
      expect(action.name).toBe('search')
      const raw = (JSON.parse(decision.raw) as { arguments: { query: string } }).arguments.query
      expect(raw.length).toBeGreaterThanOrEqual(1)
      // The grammar counts characters as llama.cpp decodes them; a random model's stray bytes can decode
      // to more UTF-16 units in JavaScript, and the decision cuts those.
      expect([...action.arguments.query].length).toBeLessThanOrEqual(12)
      expect(decision.queryCut === true).toBe([...raw].length > 12)
    }
    policy.reset({ seed: 1, question: QUESTION })
    const both = await policy.act(OBSERVATION, { kind: 'tools', tools: SEARCH })
    expect(both.action.kind).toBe('tool')
    expect(SEARCH.map((t) => t.name)).toContain((both.action as { name: string }).name)
    policy.reset({ seed: 0, question: QUESTION })
    await expect(policy.act(OBSERVATION, { kind: 'tools', tools: [SEARCH[1]!] })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/search/) })
    await policy.dispose()
  })

  it('restates the question right before the reply when asked, and keeps it when the observation is cut', async () => {
    const question: EnvQuestion = { ...QUESTION, question: 'Which tower is older, Arvel or Combe?' }
    const call = { kind: 'tool' as const, name: 'search', arguments: { query: 'Arvel tower' } }
    const promptOf = async (options: { restateQuestion?: boolean; contextSize: number }, observation: Observation): Promise<string> => {
      const policy = (await createPolicy({ kind: 'llm-free-query', modelPath, contextSize: options.contextSize, sequences: 1, recordTokens: true, maxTokens: 64, restateQuestion: options.restateQuestion }, runtime)) as ToolLlmPolicy
      try {
        policy.reset({ seed: 0, question })
        const decision = await policy.imitate(observation, { kind: 'tools', tools: SEARCH }, call, 'search-first')
        return policy['model'].pool.model.detokenize(decision.tokenIds!.prompt.map((t) => t as never))
      } finally {
        await policy.dispose()
      }
    }
    const plain = await promptOf({ contextSize: 1024 }, OBSERVATION)
    expect(plain).not.toContain('Question (again)')
    const restated = await promptOf({ contextSize: 1024, restateQuestion: true }, OBSERVATION)
    const at = restated.lastIndexOf(`Question (again): ${question.question}`)
    expect(at).toBeGreaterThan(restated.indexOf('Budget: 10% of context used'))
    // Only the reply cue follows it.
    expect(restated.length - at - `Question (again): ${question.question}`.length).toBeLessThan(40)
    // An observation too long for the context loses its middle; the restated question at its end stays.
    const long: Observation = { text: `${OBSERVATION.text}\n${'filler words '.repeat(2000)}`, data: {} }
    const cut = await promptOf({ contextSize: 1024, restateQuestion: true }, long)
    expect(cut.length).toBeLessThan(long.text.length)
    expect(cut).toContain(`Question (again): ${question.question}`)
  })

  it('decodes an extractive query as words of the observation, and imitates a teacher\'s query as its observed words', async () => {
    const policy = (await createPolicy({ kind: 'llm-free-query', modelPath, sampling: { temperature: 1.5, seed: 4 }, contextSize: 1024, sequences: 1, maxTokens: 256, maxQueryChars: 40, extractiveQueries: true, restateQuestion: true }, runtime)) as ToolLlmPolicy
    try {
      const words = new Set(observedWords(`${OBSERVATION.text}\n\nQuestion (again): ${QUESTION.question}`))
      let searched = 0
      for (let episode = 0; episode < 6; episode++) {
        policy.reset({ seed: episode, question: QUESTION })
        const decision = await policy.act(OBSERVATION, { kind: 'tools', tools: [SEARCH[0]!] })
        if (decision.action.kind !== 'tool') continue
        searched++
        const query = (decision.action.arguments as { query: string }).query
        // Whole words of the observation, single spaces (a cut at 40 characters may leave a word's start).
        const parts = query.split(' ')
        for (const w of parts.slice(0, -1)) expect(words.has(w), `${w} in ${query}`).toBe(true)
        expect([...words].some((w) => w.startsWith(parts.at(-1)!))).toBe(true)
      }
      expect(searched).toBeGreaterThan(0)
      // llama.cpp accepts the pattern over the most words an observation gives (no fallback to validation only).
      const many = observedWords(Array.from({ length: 500 }, (_, i) => `word${i}`).join(' '))
      expect(many).toHaveLength(MAX_QUERY_WORDS)
      expect((await policy.grammarFor(extractiveSearchTools(SEARCH, many))).grammar.grammar).toContain('"w" "o" "r" "d" "3" "9" "9"')
      policy.reset({ seed: 0, question: QUESTION })
      const imitated = await policy.imitate(OBSERVATION, { kind: 'tools', tools: SEARCH }, { kind: 'tool', name: 'search', arguments: { query: 'Who directed the unseen film?' } }, 'search-first')
      expect(imitated.action).toEqual({ kind: 'tool', name: 'search', arguments: { query: 'Who directed the film' } })
      await expect(policy.imitate(OBSERVATION, { kind: 'tools', tools: SEARCH }, { kind: 'tool', name: 'search', arguments: { query: 'zebra' } }, 'search-first')).rejects.toThrow(/no word of the observation/)
    } finally {
      await policy.dispose()
    }
  })

  it('cuts a query that slipped past the grammar in the decision', () => {
    const long = { kind: 'tool' as const, name: 'search', arguments: { query: 'one two three four' } }
    expect(capQueryInAction(long, 8)).toEqual({ action: { kind: 'tool', name: 'search', arguments: { query: 'one two' } }, cut: true })
    expect(capQueryInAction(long, 80).cut).toBe(false)
    expect(capQueryInAction({ kind: 'menu', id: 'A' }, 3).cut).toBe(false)
  })
})

describe('tool signatures in the prompt', () => {
  it('renders schemas compactly', () => {
    expect(typeSignature(HARNESS1_TOOLS[4]!.parameters)).toBe('{add_ids: integer 0..40[](<=3 items), remove_ids?: integer 0..40[](<=3 items), importance: "very_high" | "high" | "fair" | "low"}')
    expect(typeSignature({ type: 'string', pattern: '^S[0-9]+$', maxLength: 8 })).toBe('string /^S[0-9]+$/ (<=8 chars)')
    expect(typeSignature({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null')
    const text = describeTools([{ name: 'verify', description: 'Check a claim.', parameters: { type: 'object', properties: { claim: { type: 'string', description: 'The claim' } }, required: ['claim'] } }])
    expect(text).toContain('- verify {claim: string}: Check a claim.\n    claim: The claim')
  })
})
