/// <reference lib="dom" />
/**
 * The research loop in Chromium against the built app in browser mode: ingest a folder corpus from the
 * Corpus page, import a questions file for it on the Questions page (gold given by file name, title and
 * quoted sentence, resolved on import), draw train / dev / test splits, run an evaluation on the test
 * split from the Runs page, open a trajectory, follow a menu item into the document reader, and
 * download the run's results as CSV through the token-checked route.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/** A small original corpus: four articles whose facts chain (a bridge question needs two of them). */
const ARTICLES: Record<string, string> = {
  'orvel-lighthouse.md': '# Orvel Lighthouse\n\nThe Orvel Lighthouse stands on the northern cape of Hask Island. It was designed by the engineer Mira Tolven. Its lamp was first lit in 1872.\n',
  'mira-tolven.md': '# Mira Tolven\n\nMira Tolven was an engineer born in the port town of Brask. She studied at the Kessel Institute. Tolven later designed bridges across the Varn estuary.\n',
  'brask.md': '# Brask\n\nBrask is a port town on the Varn estuary. Its harbour exports salted fish and timber. The town council meets in the old customs house.\n',
  'kessel-institute.md': '# Kessel Institute\n\nThe Kessel Institute is a school of engineering founded in 1841. Its first director was Alder Venn. The institute stands beside the river Omm.\n',
}
const QUESTIONS = [
  { id: 'q1', question: 'In which town was the designer of the Orvel Lighthouse born?', golden_answers: ['Brask'], files: ['orvel-lighthouse.md', 'mira-tolven.md'] },
  { id: 'q2', question: 'Who was the first director of the institute where Mira Tolven studied?', golden_answers: ['Alder Venn'], titles: ['Mira Tolven', 'Kessel Institute'] },
  { id: 'q3', question: 'When was the Orvel Lighthouse lamp first lit?', golden_answers: ['1872'], sentences: ['Its lamp was first lit in 1872.'] },
]

/** RFC 4180 records (enough to count rows and read the header). */
const csvRows = (text: string): string[][] => {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') row.push(field), (field = '')
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++
    else field += c
  }
  return rows
}

describe.runIf(run)('research loop in Chromium (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-loop-')
  const folder = join(tmp.dir, 'corpus')
  const questionsFile = join(tmp.dir, 'questions.jsonl')
  let app: ServedApp
  let browser: Browser
  let page: Page
  let workspaceId: string

  const api = <T>(route: string, input: unknown): Promise<T> => callApi<T>(app, route, input)
  const go = async (hash: string) => {
    await page.evaluate((h) => (window.location.hash = h), hash)
  }

  beforeAll(async () => {
    mkdirSync(folder, { recursive: true })
    for (const [name, text] of Object.entries(ARTICLES)) writeFileSync(join(folder, name), text)
    writeFileSync(questionsFile, QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n')
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data')))
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Research loop')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Research loop"]').waitFor()
    workspaceId = (await api<{ id: string; name: string }[]>('workspace.list', {})).find((w) => w.name === 'Research loop')!.id
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  it('ingests a folder corpus, imports questions for it on the Questions page and splits them', async () => {
    await go(`#/workspaces/${workspaceId}/corpus`)
    await page.click('[data-test=tab-folder]')
    await page.fill('[data-test=folder-path]', folder)
    await page.click('[data-test=start-ingest]')
    await expect.poll(async () => page.locator('[data-test=file-table] tr[data-status=ok]').count(), { timeout: 600_000, interval: 250 }).toBe(4)

    await go(`#/workspaces/${workspaceId}/questions`)
    await page.click('[data-test=tool-import]')
    await page.setInputFiles('[data-test=question-import-file]', questionsFile)
    await page.fill('[data-test=question-import-name]', 'loop questions')
    await page.locator('[data-test=question-import] button[type=submit]').click()
    const report = page.locator('[data-test=question-import-report]')
    await report.waitFor()
    expect(await report.textContent()).toContain('3 of 3 rows imported')
    // Every gold reference (file names, titles, a quoted sentence) resolved against the folder corpus.
    expect(await page.locator('[data-test=import-unresolved]').count()).toBe(0)
    expect(await page.locator('[data-test=import-bad-row]').count()).toBe(0)

    await page.fill('[data-test=split-train]', '1')
    await page.fill('[data-test=split-dev]', '1')
    await page.fill('[data-test=split-test]', '1')
    await page.locator('[data-test=split-form] button[type=submit]').click()
    await page.locator('[data-test=split-count-test]').waitFor()
    expect(await page.locator('[data-test=split-count-test]').textContent()).toContain('test 1')
    // The folder corpus is still there: importing questions added no documents and removed none.
    expect((await api<{ documents: number }>('corpus.stats', { workspaceId })).documents).toBe(4)
  })

  it('runs an evaluation, opens a document from its trajectory, and downloads the results as CSV', async () => {
    await go(`#/workspaces/${workspaceId}/runs`)
    await page.locator('[data-test=eval-launcher]').waitFor()
    await page.selectOption('[data-test=eval-environment]', 'graph-menu')
    await page.selectOption('[data-test=eval-policy]', 'greedy')
    await page.selectOption('[data-test=eval-split]', 'test')
    await page.fill('[data-test=eval-limit]', '3')
    await page.click('[data-test=eval-start]')
    const row = page.locator('[data-test=runs-table] tr[data-status=done]').first()
    await row.waitFor({ timeout: 600_000 })
    const runId = Number(await row.getAttribute('data-run'))

    await go(`#/workspaces/${workspaceId}/runs/${runId}`)
    await page.locator('[data-test=open-trajectory]').first().click()
    await page.locator('[data-test=step-detail]').waitFor()
    const read = page.locator('[data-test=menu-item-link]').first()
    const href = (await read.getAttribute('href'))!
    expect(href).toMatch(new RegExp(`^#/workspaces/${workspaceId}/documents/\\d+\\?sentence=\\d+$`))
    await read.click()
    await page.locator('[data-test=document-title]').waitFor()
    const title = await page.locator('[data-test=document-title]').textContent()
    expect(Object.values(ARTICLES).some((text) => text.startsWith(`# ${title}`))).toBe(true)
    const highlighted = (await page.locator('[data-test=sentence-highlight]').textContent())!
    expect(Object.values(ARTICLES).join('\n')).toContain(highlighted.trim())
    await page.screenshot({ path: join(OUTPUT_DIR, 'research-loop-reader.png') })

    await go(`#/workspaces/${workspaceId}/runs/${runId}`)
    await page.locator('[data-test=export-run][data-format=run-results-csv]').click()
    const link = page.locator('[data-test=export-download]').first()
    await link.waitFor({ timeout: 600_000 })
    const res = await fetch(`${app.origin}${await link.getAttribute('href')}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const rows = csvRows(await res.text())
    expect(rows[0]!.slice(0, 6)).toEqual(['episode_id', 'run_id', 'question_id', 'train_step', 'seed', 'question'])
    // The run covered the test split only: as many rows as the split has questions, each one of them.
    const sets = await api<{ id: number; name: string; splits: { name: string; count: number }[] }[]>('questions.sets', { workspaceId })
    const testSplit = sets.find((x) => x.name === 'loop questions')!.splits.find((x) => x.name === 'test')!
    expect(testSplit.count).toBeGreaterThan(0)
    expect(testSplit.count).toBeLessThan(QUESTIONS.length)
    expect(rows.length - 1).toBe(testSplit.count)
    for (const r of rows.slice(1)) expect(QUESTIONS.map((q) => q.question)).toContain(r[5])
    // Without the token the same file is refused.
    const bare = new URL(`${app.origin}${await link.getAttribute('href')}`)
    bare.searchParams.delete('token')
    expect((await fetch(bare)).status).toBe(401)
  })
})
