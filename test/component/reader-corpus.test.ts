/**
 * The Corpus page's search and grep, the document reader, and the reader links of the Trajectory view,
 * against the real backend in-process (the demo world and a greedy evaluation, run in this process).
 */
import type { VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { readFileSync } from 'node:fs'
import { provideApi } from '../../renderer/src/api'
import { useJobsStore } from '../../renderer/src/stores/jobs'
import { APP_VERSION } from '../../main/config/version'
import { runEvaluation } from '../../main/experiments/runs/evaluate'
import { answererFor, policyFor } from '../../main/experiments/factories'
import { exportFormatCatalog } from '../../main/exports/registry'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { inProcessApi } from '../helpers/in-process-api'
import { quiet } from '../helpers/corpus'
import type { TestBackend } from '../helpers/services'
import { mountShell, settle, startJobBackend, until } from './fixtures'

describe('Corpus search and grep, the document reader and its links', () => {
  let backend: TestBackend
  let workspaceId: string
  let runId: number
  let harness1RunId: number
  let wrapper: VueWrapper | undefined
  let router: Router

  beforeAll(async () => {
    backend = await startJobBackend()
    provideApi(inProcessApi(backend))
    workspaceId = (await backend.call('workspace.create', { name: 'Reader' })).id
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    await runIngest(raw, { kind: 'demo', seed: 8, size: 0.4 }, defaultIngestOptions(), quiet)
    const setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    const policy = await policyFor({ kind: 'scripted', name: 'greedy' }, 'graph-menu')
    const answerer = await answererFor({ kind: 'lexical' })
    runId = (
      await runEvaluation(
        raw,
        { name: 'greedy', environment: 'graph-menu', envConfig: {}, policy: { kind: 'scripted', name: 'greedy' }, answerer: { kind: 'lexical' }, questionSetId: setId, offset: 0, limit: 2, seed: 1, previews: true },
        { policy: policy.value, answerer: answerer.value, appVersion: APP_VERSION, jobId: null, progress: () => {}, throwIfCancelled: () => {} },
      )
    ).runId
    const tools = await policyFor({ kind: 'scripted', name: 'scripted-tools' }, 'stateful')
    harness1RunId = (
      await runEvaluation(
        raw,
        { name: 'tools', environment: 'stateful', envConfig: {}, policy: { kind: 'scripted', name: 'scripted-tools' }, answerer: { kind: 'lexical' }, questionSetId: setId, offset: 0, limit: 1, seed: 1, previews: true },
        { policy: tools.value, answerer: answerer.value, appVersion: APP_VERSION, jobId: null, progress: () => {}, throwIfCancelled: () => {} },
      )
    ).runId
  }, 600_000)
  afterAll(() => backend?.close())
  afterEach(() => {
    wrapper?.unmount()
    wrapper = undefined
  })

  async function mountAt(path: string, pinia = createPinia()): Promise<VueWrapper> {
    setActivePinia(pinia)
    const [CorpusView, DocumentView, TrajectoryView, RunView] = await Promise.all([
      import('../../renderer/src/views/CorpusView.vue'),
      import('../../renderer/src/views/DocumentView.vue'),
      import('../../renderer/src/views/TrajectoryView.vue'),
      import('../../renderer/src/views/RunView.vue'),
    ])
    router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/workspaces/:id/corpus', component: CorpusView.default },
        { path: '/workspaces/:id/documents/:documentId', component: DocumentView.default },
        { path: '/workspaces/:id/episodes/:episodeId', component: TrajectoryView.default },
        { path: '/workspaces/:id/runs/:runId', component: RunView.default },
        { path: '/:rest(.*)*', component: { render: () => null } },
      ],
    })
    await router.push(path)
    await router.isReady()
    wrapper = await mountShell(router, pinia)
    return wrapper
  }

  const search = async (w: VueWrapper, query: string, mode: string) => {
    await w.get('[data-test=search-input]').setValue(query)
    await w.get('[data-test=search-mode]').setValue(mode)
    await w.get('form:has([data-test=search-input])').trigger('submit')
    await settle()
  }

  it('clears the results when a dense search fails and says how to get an embedding model', async () => {
    const w = await mountAt(`/workspaces/${workspaceId}/corpus`)
    await search(w, 'river', 'bm25')
    await until(() => w.findAll('[data-test=search-results] li').length > 0, 'bm25 results')
    expect(w.find('[data-test=search-error]').exists()).toBe(false)
    await search(w, 'river', 'dense')
    await until(() => w.find('[data-test=search-error]').exists(), 'the dense error')
    expect(w.find('[data-test=search-results]').exists()).toBe(false)
    expect(w.get('[data-test=search-error]').text()).toMatch(/Dense search needs an embedding model.*No embedding model yet: embed the chunks with a GGUF embedding model under "Dense vectors"/)
    // Hybrid has a labelled fallback instead of an error: results again, the error gone.
    await search(w, 'river', 'hybrid')
    await until(() => w.findAll('[data-test=search-results] li').length > 0, 'hybrid results')
    expect(w.find('[data-test=search-error]').exists()).toBe(false)
    expect(w.text()).toContain('hybrid fell back to bm25')
  })

  it('greps with a cap and the time it took, refuses a bad pattern clearly, and links each match to the reader', async () => {
    const w = await mountAt(`/workspaces/${workspaceId}/corpus`)
    await w.get('[data-test=grep-input]').setValue('\\bthe\\b')
    await w.get('[data-test=grep-max]').setValue('20')
    await w.get('form:has([data-test=grep-input])').trigger('submit')
    await until(() => w.find('[data-test=grep-summary]').exists(), 'grep results')
    expect(w.findAll('[data-test=grep-results] li').length).toBe(20)
    expect(w.get('[data-test=grep-summary]').text().replace(/\s+/g, ' ')).toMatch(/^20 matches in \d+ chunks · [\d.]+ ms · capped at 20$/)
    const link = w.get('[data-test=grep-link]').attributes('href')
    expect(link).toMatch(new RegExp(`^/workspaces/${workspaceId}/documents/\\d+\\?chunk=\\d+$`))

    await w.get('[data-test=grep-input]').setValue('founded (in')
    await w.get('form:has([data-test=grep-input])').trigger('submit')
    await until(() => w.find('[data-test=grep-error]').exists(), 'the grep error')
    expect(w.get('[data-test=grep-error]').text()).toMatch(/^Invalid regular expression \/founded \(in\//)
    expect(w.find('[data-test=grep-results]').exists()).toBe(false)
  })

  it('opens a document with the sentence and the chunk highlighted', async () => {
    const hit = (await backend.call('corpus.search', { workspaceId, query: 'river', k: 5 })).hits[0]!
    const chunk = await backend.call('corpus.chunk', { workspaceId, chunkId: hit.chunkId })
    const sentence = chunk.sentences.at(-1)!
    const w = await mountAt(`/workspaces/${workspaceId}/documents/${hit.documentId}?sentence=${sentence.ord}&chunk=${hit.chunkId}`)
    await until(() => w.find('[data-test=document-title]').exists(), 'the document')
    expect(w.get('[data-test=document-title]').text()).toBe(hit.title)
    expect(w.get('[data-test=sentence-highlight]').element.textContent).toBe(sentence.text)
    const chunkText = w.findAll('[data-test=chunk-highlight], [data-test=sentence-highlight].in-chunk').map((e) => e.element.textContent ?? '').join('')
    expect(chunkText).toBe(chunk.text)
    expect(chunkText.length).toBeGreaterThan(0)
    expect(w.get('[data-test=sentence-highlight]').attributes('data-anchor')).toBe('true')
    expect(w.find('[data-test=reader-not-found]').exists()).toBe(false)

    await router.push(`/workspaces/${workspaceId}/documents/${hit.documentId}?sentence=9999`)
    await until(() => w.find('[data-test=reader-not-found]').exists(), 'the not-found line')
    expect(w.get('[data-test=reader-not-found]').text()).toContain('has no sentence 9999')
    expect(w.find('[data-test=sentence-highlight]').exists()).toBe(false)
  })

  it('links committed evidence, menu items and gold in the Trajectory view to the reader at their sentence', async () => {
    const episodes = (await backend.call('runs.episodes', { workspaceId, runId })).episodes
    const episode = await backend.call('runs.episode', { workspaceId, episodeId: episodes[0]!.id })
    const w = await mountAt(`/workspaces/${workspaceId}/episodes/${episode.id}`)
    await until(() => w.find('[data-test=step-detail]').exists(), 'the trajectory')
    // Step to the last step, where the committed evidence is longest.
    for (let i = 1; i < episode.steps.length; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))
    await settle()
    const committed = episode.steps.at(-1)!.view.committed ?? []
    expect(committed.length).toBeGreaterThan(0)
    await until(() => w.findAll('[data-test=evidence-link]').length === committed.length, 'evidence links')
    const first = committed[0]!
    const located = await backend.call('documents.locate', { workspaceId, sentenceIds: [first.sentenceId] })
    expect(w.get('[data-test=evidence-link]').attributes('href')).toBe(`/workspaces/${workspaceId}/documents/${located.sentences[0]!.documentId}?sentence=${first.ord}`)
    const menuLinks = w.findAll('[data-test=menu-item-link]')
    expect(menuLinks.length).toBeGreaterThan(0)
    expect(menuLinks[0]!.attributes('href')).toMatch(new RegExp(`^/workspaces/${workspaceId}/documents/\\d+\\?sentence=\\d+$`))
    const resolvedGold = episode.goldEvidence.sentences.filter((s) => s.documentId !== null)
    expect(w.findAll('[data-test=gold-link]').length).toBe(resolvedGold.length)
    // The gold list reads "sentence 6 Reirelle ...", never "sentence 6Reirelle".
    const withText = w.findAll('[data-test=gold-evidence] li[data-sentence]').map((li) => li.element.textContent ?? '').filter((t) => /sentence \d+\s*\S/.test(t))
    expect(withText.length).toBeGreaterThan(0)
    for (const text of withText) expect(text).toMatch(/sentence \d+ \S/)
  })

  it('links the curated documents of a Harness-1 working memory to the reader at their chunk', async () => {
    const [first] = (await backend.call('runs.episodes', { workspaceId, runId: harness1RunId })).episodes
    const episode = await backend.call('runs.episode', { workspaceId, episodeId: first!.id })
    const w = await mountAt(`/workspaces/${workspaceId}/episodes/${episode.id}`)
    await until(() => w.find('[data-test=working-memory]').exists(), 'the working memory')
    for (let i = 1; i < episode.steps.length; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))
    await settle()
    const curated = episode.steps.at(-1)!.view.memory!.curated
    expect(curated.length).toBeGreaterThan(0)
    await until(() => w.findAll('[data-test=curated-link]').length === curated.length, 'curated links')
    const chunkId = Number(/^D(\d+)$/.exec(curated.find((c) => c.id === w.get('[data-test=memory-curated] code').text())!.id)![1])
    const located = await backend.call('documents.locate', { workspaceId, chunkIds: [chunkId] })
    expect(w.get('[data-test=curated-link]').attributes('href')).toBe(`/workspaces/${workspaceId}/documents/${located.chunks[0]!.documentId}?chunk=${chunkId}`)
  })

  it('exports a run from the Run page as a job and shows where the file was saved (desktop: no download route)', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    // The app shell holds the live job list; this test holds it in its place.
    const stop = useJobsStore().live()
    try {
      const w = await mountAt(`/workspaces/${workspaceId}/runs/${runId}`, pinia)
      // one button per registered run format, in the registry's order (a new format needs no change here)
      const runFormats = exportFormatCatalog().filter((f) => f.source === 'run').map((f) => f.name)
      expect(runFormats).toContain('run-results-jsonl')
      await until(() => w.findAll('[data-test=export-run]').length === runFormats.length, 'the export buttons')
      expect(w.findAll('[data-test=export-run]').map((b) => b.attributes('data-format'))).toEqual(runFormats)
      await w.get('[data-test=export-run][data-format=run-results-jsonl]').trigger('click')
      await until(() => w.find('[data-test=export-file]').exists(), 'the finished export')
      const shown = w.get('[data-test=export-file]').text()
      const file = /^Saved (.+\.jsonl)$/.exec(shown)?.[1]
      expect(file, shown).toBeDefined()
      const lines = readFileSync(file!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { episodeId: number })
      expect(lines.length).toBe((await backend.call('runs.episodes', { workspaceId, runId })).total)
      expect(w.find('[data-test=export-download]').exists()).toBe(false)
    } finally {
      stop()
    }
  }, 600_000)
})
