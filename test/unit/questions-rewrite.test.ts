/**
 * The optional GGUF rewrite of generated questions: the checks a rewrite must pass (hand-written
 * candidates), and the generate job with a real model. No instruction-tuned model exists here, so the
 * real runs use stories260K (a tiny story model) and a tiny random GGUF with a chat template: their
 * outputs are recorded, refused by the checks with reasons, and the template kept.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QuestionGenerateParams, type QuestionProvenance } from '../../preload/contract'
import { questionsGenerateJobWith } from '../../main/job-kinds/questions-generate'
import { JobCancelledError, type JobContext } from '../../main/jobs/protocol'
import { instructLine } from '../../main/llm/instruct-line'
import { modelCacheFor } from '../../main/llm/model-cache'
import { checkRewrite, cleanRewrite, generateCandidates, openQuestionRewriter, questionSetDetail, rewritePrompt, rewriteQuestions, saveQuestion, selectGenerated, type GeneratedQuestion } from '../../main/questions'
import type { QuestionUsage } from '../../main/questions'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama } from '../helpers/gguf'
import { useRuntimeFixture } from '../helpers/gguf/runtime'

const ADA = 'Ada Lovelace, the English mathematician and writer, was born in London on 10 December 1815.'
const BABBAGE = 'Charles Babbage, the English polymath and inventor, was born on 26 December 1791 in London.'
const GOLD = [ADA, 'London is the capital of England, on the River Thames.']
const bridge: Pick<GeneratedQuestion, 'question' | 'answers' | 'gold' | 'form'> = {
  form: 'bridge',
  question: '"Ada Lovelace" mentions a place right after the words "born in". What place does the article on that place give right before the words "is the capital"?',
  answers: ['England'],
  gold: [
    { sentenceId: 1, documentId: 1, title: 'Ada Lovelace', externalId: 'a', ord: 0, contains: ['London'] },
    { sentenceId: 2, documentId: 2, title: 'London', externalId: 'b', ord: 0, contains: ['London', 'England'] },
  ],
}
const choice: Pick<GeneratedQuestion, 'question' | 'answers' | 'gold' | 'form'> = {
  form: 'comparison-choice',
  question: 'Who was born first, "Ada Lovelace" or "Charles Babbage"?',
  answers: ['Charles Babbage'],
  gold: [
    { sentenceId: 1, documentId: 1, title: 'Ada Lovelace', externalId: 'a', ord: 0, contains: ['1815'] },
    { sentenceId: 3, documentId: 3, title: 'Charles Babbage', externalId: 'c', ord: 0, contains: ['1791'] },
  ],
}

describe('rewrite checks', () => {
  it('accepts a reworded question that keeps the titles and leaks nothing', () => {
    const v = checkRewrite(bridge, GOLD, 'Which place does the article on the place "Ada Lovelace" names after "born in" describe as the capital of?')
    expect(v).toEqual({ ok: true, text: 'Which place does the article on the place "Ada Lovelace" names after "born in" describe as the capital of?' })
    // A choice question names its answer by design: the rewrite may too, and quotes and labels are taken off.
    expect(checkRewrite(choice, [ADA, BABBAGE], 'Question: "Of Ada Lovelace and Charles Babbage, whose birth came earlier?"')).toEqual({
      ok: true,
      text: 'Of Ada Lovelace and Charles Babbage, whose birth came earlier?',
    })
    expect(cleanRewrite('  Rewritten question: “What is it?”  ')).toBe('What is it?')
  })

  it.each([
    ['', 'empty'],
    ['Once upon a time there was a little girl named Lily', 'not-one-question'],
    ['Where was Ada born? Which country is it in?', 'not-one-question'],
    ['Who?', 'length'],
    [`Which place ${'does the long article really say '.repeat(8)}about "Ada Lovelace"?`, 'length'],
    ['"Ada Lovelace" mentions a place right after the words "born in". What place does the article on that place give right before the words "is the capital"?', 'unchanged'],
    ['Is the place "Ada Lovelace" was born in the capital of England?', 'contains-answer'],
    ['Of which country is the birthplace of "Ada Lovelace", on the River Thames, the capital?', 'quotes-gold'],
    ['Which country has London, where "Ada Lovelace" was born, as its capital city?', 'names-bridge'],
    ['Which country has as its capital the birthplace of that famous mathematician?', 'lost-entity'],
    // The cue words are what make the answer the only one: a rewrite may reword around them, not drop them.
    ['Which country is the home of the article on the birthplace of "Ada Lovelace"?', 'lost-cue'],
  ])('refuses %j as %s', (output, reason) => {
    const v = checkRewrite(bridge, GOLD, output)
    expect(v.ok).toBe(false)
    if (!v.ok) {
      expect(v.reason).toBe(reason)
      expect(v.because.length).toBeGreaterThan(5)
    }
  })

  it('bounds the option in the contract', () => {
    const base = { name: 'x' }
    expect(QuestionGenerateParams.parse(base).rewrite).toBeNull()
    expect(QuestionGenerateParams.parse({ ...base, rewrite: { modelPath: '/m.gguf' } }).rewrite).toEqual({ modelPath: '/m.gguf', maxQuestions: 200, maxTokens: 64 })
    for (const bad of [{ modelPath: '' }, { modelPath: '/m.gguf', maxQuestions: 0 }, { modelPath: '/m.gguf', maxTokens: 4 }, { modelPath: '/m.gguf', maxTokens: 1000 }, { modelPath: '/m.gguf', extra: 1 }]) {
      expect(QuestionGenerateParams.safeParse({ ...base, rewrite: bad }).success, JSON.stringify(bad)).toBe(false)
    }
  })
})

const fixture = useRuntimeFixture()
let demo: DemoWorkspace
const noUsage: QuestionUsage = { usedBy: () => [] } as unknown as QuestionUsage

beforeAll(async () => {
  demo = await openDemoWorkspace(3, 1)
}, 600_000)
afterAll(async () => {
  await demo?.close()
})

function jobContext(params: unknown, cancelOn?: string): JobContext & { holds: string[]; stages: string[] } {
  let cancelled = false
  const holds: string[] = []
  const stages: string[] = []
  return {
    jobId: 'test',
    params,
    dataDir: fixture.tmp.dir,
    workspaceDbFile: demo.db.file,
    holds,
    stages,
    reportModelHold(path) {
      holds.push(`hold ${path}`)
      return () => holds.push(`release ${path}`)
    },
    progress(_p, stage) {
      stages.push(stage)
      if (stage === cancelOn) cancelled = true
    },
    throwIfCancelled() {
      if (cancelled) throw new JobCancelledError()
    },
    get cancelled() {
      return cancelled
    },
  }
}

const CHATML = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"

describe('rewrite through a real GGUF', () => {
  it('a tiny random model with a chat template writes through its template; its gibberish is refused with reasons', async () => {
    const path = writeTinyLlama(join(fixture.tmp.dir, 'chat.gguf'), { vocab: 'bpe', seed: 5, chatTemplate: CHATML, contextLength: 1024 }).file
    const kept = selectGenerated(generateCandidates(demo.db.raw, { seed: 1, kinds: ['bridge', 'comparison'], maxPerKind: 3 }), { maxPerKind: 3, answerNotInQuestion: true }).kept
    const rewriter = await openQuestionRewriter(path, fixture.runtime())
    try {
      expect(rewriter.promptTemplate).not.toBe('plain')
      expect(rewriter.model).toMatch(/^chat\.gguf@[0-9a-f]{12}$/)
      const out = await rewriteQuestions(kept, () => [], rewriter, { maxQuestions: 4, maxTokens: 16 }, { progress: () => undefined, throwIfCancelled: () => undefined })
      expect(out.counts.accepted + Object.values(out.counts.rejected).reduce((a, b) => a + b, 0)).toBe(4)
      expect(out.counts.overBudget).toBe(kept.length - 4)
      for (const [i, r] of out.questions.entries()) {
        expect(r.rewrite.template).toBe(kept[i]!.question)
        if (i >= 4) expect(r.rewrite.status).toBe('over-budget')
        else {
          expect(r.rewrite.status).toBe('rejected')
          expect(r.rewrite.output).toBeTypeOf('string')
          expect(r.question.question).toBe(kept[i]!.question)
        }
      }
    } finally {
      await rewriter.dispose()
    }
    // Released: the cache holds nothing of it.
    expect(modelCacheFor(fixture.runtime()).entries().some((e) => e.path === path)).toBe(false)
  }, 300_000)

  it('a question that does not fit a small context is refused as too-long-prompt, not a failed job', async () => {
    const path = writeTinyLlama(join(fixture.tmp.dir, 'short.gguf'), { seed: 6, contextLength: 64 }).file
    const kept = selectGenerated(generateCandidates(demo.db.raw, { seed: 1, kinds: ['bridge'], maxPerKind: 1 }), { maxPerKind: 1, answerNotInQuestion: true }).kept
    const rewriter = await openQuestionRewriter(path, fixture.runtime())
    const out = await rewriteQuestions(kept, () => [], rewriter, { maxQuestions: 1, maxTokens: 16 }, { progress: () => undefined, throwIfCancelled: () => undefined }).finally(() => rewriter.dispose())
    expect(out.counts.rejected).toEqual({ 'too-long-prompt': 1 })
    expect(out.questions[0]!.rewrite).toMatchObject({ status: 'rejected', reason: 'too-long-prompt', template: kept[0]!.question })
    expect(out.questions[0]!.rewrite.output).toBeUndefined()
  }, 120_000)

  it.skipIf(!storiesAvailable)(storiesTitle('the generate job rewrites through stories260K: outputs recorded, refused with reasons, template kept, provenance and counts stored'), async () => {
    const rewrite = { modelPath: STORIES_260K, maxQuestions: 6, maxTokens: 32 }
    const params = { name: 'rewritten', seed: 1, kinds: ['bridge', 'comparison'], maxPerKind: 5, rewrite }
    const templates = selectGenerated(generateCandidates(demo.db.raw, { seed: 1, kinds: ['bridge', 'comparison'], maxPerKind: 5 }), { maxPerKind: 5, answerNotInQuestion: true }).kept
    // The model itself writes story text after the instruction: the job must record exactly that.
    const direct = await modelCacheFor(fixture.runtime()).lease(STORIES_260K, { sequences: 1, contextSize: 512 })
    const first = await instructLine(direct.pool, rewritePrompt(templates[0]!.question), 32).finally(() => direct.release())
    expect(first.tokens).toBeGreaterThan(0)

    const ctx = jobContext(params)
    const { result } = await questionsGenerateJobWith(async () => fixture.runtime())(ctx)
    const rw = result.rewrite!
    expect(rw.model).toMatch(/^stories260K\.gguf@[0-9a-f]{12}$/)
    expect(rw.promptTemplate).toBe('plain')
    expect(rw.overBudget).toBe(templates.length - 6)
    const rejected = Object.values(rw.rejected).reduce((a, b) => a + b, 0)
    expect(rw.accepted + rejected).toBe(6)
    // A story model does not write quiz questions: every output is refused and the template stays.
    expect(rw.accepted).toBe(0)
    expect(ctx.stages).toContain('rewrite')
    expect(ctx.holds).toEqual([`hold ${STORIES_260K}`, `release ${STORIES_260K}`])

    const rows = demo.db.raw.prepare('select question, meta_json from questions where set_id = ? order by id').all(result.setId) as Array<{ question: string; meta_json: string }>
    expect(rows.map((r) => r.question)).toEqual(templates.map((q) => q.question))
    const records = rows.map((r) => (JSON.parse(r.meta_json) as QuestionProvenance).rewrite!)
    // Greedy: the job recorded what the model writes for that prompt.
    expect(records[0]!.output).toBe(first.text)
    for (const [i, rec] of records.entries()) {
      expect(rec.model).toBe(rw.model)
      expect(rec.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(rec.template).toBe(templates[i]!.question)
      if (i < 6) {
        expect(rec.status).toBe('rejected')
        expect(rec.output).toBeTypeOf('string')
        expect(rec.output).not.toBe(rec.template)
        expect(rec.reason).toBeTypeOf('string')
        expect(rec.because!.length).toBeGreaterThan(5)
      } else expect(rec.status).toBe('over-budget')
    }
    // The set's detail counts them by reason, as the Questions page shows them.
    const detail = questionSetDetail(demo.db.raw, noUsage, result.setId)
    expect(detail.rewrites).toEqual([{ model: rw.model, accepted: 0, rejected: rw.rejected, overBudget: rw.overBudget }])

    // Edited by hand, the question keeps its rewrite record but says it is no longer the generator's text.
    const firstId = demo.db.raw.prepare('select min(id) from questions where set_id = ?').pluck().get(result.setId) as number
    const edited = saveQuestion(demo.db.raw, result.setId, firstId, { question: 'Which of the two was written first?', answers: ['the first'], type: null, sentenceIds: [], documentIds: [] })
    expect(edited.provenance).toMatchObject({ origin: 'generated', editedByHand: true, rewrite: { status: 'rejected', template: templates[0]!.question } })
  }, 600_000)

  it.skipIf(!storiesAvailable)(storiesTitle('cancelling during the rewrite stores nothing and releases the model'), async () => {
    const ctx = jobContext({ name: 'cancelled', seed: 1, kinds: ['bridge'], maxPerKind: 5, rewrite: { modelPath: STORIES_260K, maxQuestions: 5, maxTokens: 16 } }, 'rewrite')
    await expect(questionsGenerateJobWith(async () => fixture.runtime())(ctx)).rejects.toBeInstanceOf(JobCancelledError)
    expect(demo.db.raw.prepare("select count(*) from question_sets where name = 'cancelled'").pluck().get()).toBe(0)
    expect(ctx.holds.at(-1)).toBe(`release ${STORIES_260K}`)
  }, 300_000)

  it('a missing model fails the job with a clear error before anything is stored', async () => {
    const ctx = jobContext({ name: 'missing-model', seed: 1, kinds: ['bridge'], maxPerKind: 2, rewrite: { modelPath: join(fixture.tmp.dir, 'nope.gguf') } })
    await expect(questionsGenerateJobWith(async () => fixture.runtime())(ctx)).rejects.toThrow(/nope\.gguf/)
    expect(demo.db.raw.prepare("select count(*) from question_sets where name = 'missing-model'").pluck().get()).toBe(0)
  }, 120_000)
})
