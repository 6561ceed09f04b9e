/**
 * npm run bench:ingest-hostile — hostile files through the real ingest (runIngest, file worker and all).
 *
 * 1. Deep HTML: `<div>` nested N deep (N = 1,000 / 4,000 / 20,000, and 60,000 past the hard limit):
 *    wall time (a fresh file worker each) and the file's own parse + prepare seconds, and the outcome of
 *    ingesting each page alone. With --readability-baseline, Readability's own time on the N = 1,000
 *    page (the path every page took before), for comparison.
 * 2. A 60 MiB plain-text file (demo-world prose, paragraphs; MIB=.. to change): wall time, the
 *    ingest's stage seconds, peak memory (resourceUsage().maxRSS of the file worker process and of
 *    the ingest's own process) and how many progress updates the file reported while it was read.
 * 3. Determinism: a folder ingested whole, in two halves (the second half added later), after a
 *    simulated crash (a child process SIGKILLed mid-ingest, then resumed here) and in reverse order:
 *    sentence, entity and mention digests compared with the whole ingest.
 * 4. A ZIP-bomb DOCX (1 GiB of zeros in ~1 MB): time, outcome and memory growth.
 *
 * 5. Question import, 100k rows (ROWS=.. to change) as a JSON array, as {data: [...]}, as JSONL and
 *    as CSV, RUNS=.. times each (default 3), two ways, each in its own process: the questions.import
 *    route as the app runs it (staged, then a questions.import job reads, resolves and writes it in a
 *    worker thread) and importQuestionSetAsync on the calling thread (the peer). Medians of wall time,
 *    of the job's own seconds in its thread, of how long the calling thread's event loop was held at
 *    most (what another request waited; with this machine's idle floor), and the process's peak RSS;
 *    ratios worker / thread and each format / JSONL (bench/question-import-figures.ts).
 * 6. Regular expressions: `(\w+\s?)+$` over a line of N letters ending in "!" through grep (RE2) next to
 *    JavaScript's own backtracking RegExp on short lines of the same kind (its time doubles per letter).
 *
 * Everything is generated into a temporary folder; nothing is downloaded. --skip-large skips (2);
 * --only=5,6 runs only the sections listed.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { createDeflateRaw, crc32 } from 'node:zlib'
import { generateDemoWorld } from '../main/corpus/demo-world'
import { parseHtml } from '../main/corpus/parsers/html'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { graphDigest, type GraphDigest } from '../main/ingest/digest'
import { stopIdleFileWorkers } from '../main/ingest/isolation'
import { defaultIngestOptions, runIngest, type IngestReporter, type IngestSummary } from '../main/ingest/run'
import type { IngestSource } from '../main/ingest/sources'
import { grepChunks } from '../main/retrieval/grep'
import { crashingIngest } from './support/crashing-ingest'
import { tempDir } from './support/services'
import { questionImportFigures } from './question-import-figures'
import { oneEntryZip } from './support/zip'

const args = new Set(process.argv.slice(2))
const MIB = Number(process.env.MIB ?? 60)
const ROWS = Number(process.env.ROWS ?? 100_000)
const RUNS = Math.max(1, Number(process.env.RUNS ?? 3))
const only = [...args].find((a) => a.startsWith('--only='))?.slice(7).split(',').map(Number)
const section = (n: number): boolean => !only || only.includes(n)
const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }
const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(0)} MiB`
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

async function ingestInto(file: string, source: IngestSource, reporter: IngestReporter = quiet): Promise<IngestSummary> {
  // Each ingest in a fresh file worker process, as separate runs of the app would be.
  stopIdleFileWorkers()
  const db = await openDatabase(file, workspaceMigrations)
  try {
    return await runIngest(db.raw, source, defaultIngestOptions(), reporter)
  } finally {
    await db.close()
  }
}

async function digestOf(file: string): Promise<GraphDigest> {
  const db = await openDatabase(file, workspaceMigrations)
  try {
    return graphDigest(db.raw)
  } finally {
    await db.close()
  }
}

const outcomeText = (summary: IngestSummary): string =>
  summary.outcomes
    .map((o) => `${o.status}${o.reason ? ` (${o.reason})` : ''}${o.error ? `: ${o.error.replace(/^[^:]+: /, '')}` : ''}${o.notes ? `; note: ${o.notes.join('; ')}` : ''}`)
    .join(' | ')

const deepHtml = (n: number): string =>
  `<html><head><title>Deep page</title></head><body>${'<div>'.repeat(n)}<p>Ada Lovelace wrote her notes in London in 1843.</p>${'</div>'.repeat(n)}</body></html>`

async function deepHtmlFigures(tmp: string): Promise<void> {
  console.log('\n1. Deep HTML (<div> nested N deep), each page ingested alone')
  for (const n of [1_000, 4_000, 20_000, 60_000]) {
    const dir = join(tmp, `deep-${n}`)
    mkdirSync(dir)
    const page = join(dir, `deep-${n}.html`)
    writeFileSync(page, deepHtml(n))
    const t = performance.now()
    const summary = await ingestInto(join(tmp, `deep-${n}.db`), { kind: 'files', paths: [page] })
    const bytes = Buffer.byteLength(deepHtml(n))
    const file = summary.seconds.parse + summary.seconds.nlp
    console.log(
      `   N = ${n.toLocaleString('en-US').padStart(6)} (${(bytes / 1024).toFixed(0)} KB): ${s(performance.now() - t).padStart(7)} wall (${file.toFixed(2)} s parsing and preparing the file, the rest starting a worker and writing)  ${outcomeText(summary)}`,
    )
  }
  if (args.has('--readability-baseline')) {
    const t = performance.now()
    await parseHtml(Buffer.from(deepHtml(1_000)), 'deep-1000.html', { readabilityMaxDepth: Number.POSITIVE_INFINITY })
    console.log(`   baseline: Readability itself on the N = 1,000 page (the old path): ${s(performance.now() - t)}`)
  }
}

/** About `mib` MiB of prose: demo-world articles as paragraphs, repeated. */
function writeLargeText(path: string, mib: number): number {
  const articles = generateDemoWorld({ seed: 11, size: 3 }).documents.map((d) => `${d.title}\n\n${d.text}`)
  const parts: string[] = []
  let length = 0
  for (let i = 0; length < mib * 1024 * 1024; i++) {
    const article = articles[i % articles.length]!
    parts.push(article)
    length += article.length + 2
  }
  const text = parts.join('\n\n')
  writeFileSync(path, text)
  return Buffer.byteLength(text)
}

async function largeTextFigures(tmp: string): Promise<void> {
  console.log(`\n2. A ${MIB} MiB plain-text file`)
  const dir = join(tmp, 'large')
  mkdirSync(dir)
  const file = join(dir, `prose-${MIB}mib.txt`)
  const bytes = writeLargeText(file, MIB)
  const maxRssBefore = process.resourceUsage().maxRSS * 1024
  let updates = 0
  let lastPercent = ''
  const reporter: IngestReporter = {
    progress: (_p, stage, message) => {
      if (stage === 'sentences & entities') {
        updates++
        lastPercent = message ?? ''
      }
    },
    throwIfCancelled: () => undefined,
  }
  const t = performance.now()
  const summary = await ingestInto(join(tmp, 'large.db'), { kind: 'files', paths: [file] }, reporter)
  const wall = performance.now() - t
  const maxRss = process.resourceUsage().maxRSS * 1024
  const sec = summary.seconds
  console.log(`   file: ${mb(bytes)} (${bytes.toLocaleString('en-US')} bytes); outcome: ${outcomeText(summary)}`)
  console.log(`   time: ${s(wall)} wall (parse ${sec.parse.toFixed(1)} s, sentences & entities ${sec.nlp.toFixed(1)} s, write ${sec.write.toFixed(1)} s, entity links ${sec.links.toFixed(1)} s)`)
  console.log(`   graph: ${summary.documents} document, ${summary.chunks.toLocaleString('en-US')} chunks, ${summary.sentences.toLocaleString('en-US')} sentences, ${summary.mentions.toLocaleString('en-US')} mentions`)
  console.log(
    `   memory: peak RSS of the file worker process ${mb(summary.isolation.workerPeakRssBytes)} (its resourceUsage().maxRSS after the file; budget ${mb(defaultIngestOptions().limits!.memoryMiB * 1024 * 1024)}); ` +
      `of the ingest's own process ${mb(maxRss)} (resourceUsage().maxRSS; ${mb(maxRssBefore)} before the file)`,
  )
  console.log(`   progress: ${updates} updates while the file's sentences and entities were read (last: "${lastPercent}")`)
}

/** A folder of documents that exercises the lexicon: "God's," teaches wink the word "God's" in the old code. */
function writeDeterminismCorpus(dir: string): string[] {
  mkdirSync(dir)
  const names: string[] = []
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text)
    names.push(name)
  }
  write('a-primer.txt', "The psalm ends with the word God's, as the scribes wrote it. The U.S.-based archive kept a copy.")
  const docs = generateDemoWorld({ seed: 4, size: 0.5 }).documents
  docs.forEach((d, i) => write(`doc-${String(i).padStart(3, '0')}.${i % 3 === 0 ? 'md' : 'txt'}`, `# ${d.title}\n\n${d.text}\n`))
  write('z-probe.txt', "The blessing of God's presence was felt in the U.S.-based archive, said Ada Lovelace.")
  return names.sort()
}

async function determinismFigures(tmp: string): Promise<void> {
  console.log('\n3. Resume equals uninterrupted: digests of sentences, entities and mentions')
  const folder = join(tmp, 'corpus')
  const names = writeDeterminismCorpus(folder)
  const whole = join(tmp, 'whole.db')
  await ingestInto(whole, { kind: 'folder', path: folder })
  const reference = await digestOf(whole)

  // Two halves: the folder with its first half only, then again once the second half is back (same paths).
  const half = Math.ceil(names.length / 2)
  const halvesDb = join(tmp, 'halves.db')
  const digests: [string, GraphDigest][] = []
  {
    const stash = join(tmp, 'stash')
    mkdirSync(stash)
    for (const n of names.slice(half)) {
      writeFileSync(join(stash, n), readFileSync(join(folder, n)))
      rmSync(join(folder, n))
    }
    await ingestInto(halvesDb, { kind: 'folder', path: folder })
    for (const n of names.slice(half)) writeFileSync(join(folder, n), readFileSync(join(stash, n)))
    await ingestInto(halvesDb, { kind: 'folder', path: folder })
    digests.push(['two halves', await digestOf(halvesDb)])
  }

  const crashDb = join(tmp, 'crash.db')
  const killAfter = Math.floor(names.length / 3)
  const { writes: wrote } = await crashingIngest(crashDb, folder, killAfter)
  await ingestInto(crashDb, { kind: 'folder', path: folder })
  digests.push([`crash after ${wrote} of ${names.length} file writes + resume`, await digestOf(crashDb)])

  const reverseDb = join(tmp, 'reverse.db')
  await ingestInto(reverseDb, { kind: 'files', paths: [...names].reverse().map((n) => join(folder, n)) })
  digests.push(['reverse order', await digestOf(reverseDb)])

  let equal = 0
  let total = 0
  console.log(`   whole: ${reference.counts.sentences} sentences, ${reference.counts.entities} entities, ${reference.counts.mentions} mentions (${names.length} files)`)
  for (const [label, d] of digests) {
    const same = (['sentences', 'entities', 'mentions'] as const).map((k) => d[k] === reference[k])
    equal += same.filter(Boolean).length
    total += same.length
    console.log(`   ${label.padEnd(40)} sentences ${same[0] ? 'equal' : 'DIFFER'}, entities ${same[1] ? 'equal' : 'DIFFER'}, mentions ${same[2] ? 'equal' : 'DIFFER'}`)
  }
  console.log(`   digests equal to the whole ingest: ${equal}/${total}`)
}

/** A DOCX whose word/document.xml is `size` zero bytes, deflated as it is written (never held whole). */
async function zipBomb(path: string, size: number): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024)
  let crc = 0
  for (let done = 0; done < size; done += chunk.length) crc = crc32(chunk, crc)
  const deflated: Buffer[] = []
  const deflate = createDeflateRaw({ level: 9 })
  const source = Readable.from((function* () {
    for (let done = 0; done < size; done += chunk.length) yield chunk
  })())
  source.pipe(deflate)
  for await (const piece of deflate) deflated.push(piece as Buffer)
  writeFileSync(path, oneEntryZip('word/document.xml', Buffer.concat(deflated), crc, size))
}

async function zipBombFigures(tmp: string): Promise<void> {
  console.log('\n4. ZIP-bomb DOCX')
  const dir = join(tmp, 'bomb')
  mkdirSync(dir)
  const file = join(dir, 'bomb.docx')
  await zipBomb(file, 1024 * 1024 * 1024 - 1)
  const rss = process.memoryUsage().rss
  const t = performance.now()
  const summary = await ingestInto(join(tmp, 'bomb.db'), { kind: 'files', paths: [file] })
  console.log(`   ${(statSync(file).size / 1024).toFixed(0)} KB file declaring 1 GiB: ${s(performance.now() - t)}, rss ${mb(rss)} -> ${mb(process.memoryUsage().rss)}; ${outcomeText(summary)}`)
}

async function regexFigures(tmp: string): Promise<void> {
  const pattern = '(\\w+\\s?)+$'
  console.log(`\n6. /${pattern}/ over a line of N letters ending in "!" (no match: the case that backtracks)`)
  const line = (n: number) => `${'a'.repeat(n)}!`
  for (const n of [16, 18, 20]) {
    const re = new RegExp(pattern)
    const times: number[] = []
    for (let k = 0; k < 3; k++) {
      const t = performance.now()
      re.test(line(n))
      times.push(performance.now() - t)
    }
    console.log(`   JavaScript RegExp, N = ${String(n).padStart(6)}: median ${median(times).toFixed(1)} ms`)
  }
  for (const n of [20, 1_000, 20_000]) {
    const db = await openDatabase(join(tmp, `regex-${n}.db`), workspaceMigrations)
    try {
      await runIngest(db.raw, { kind: 'files', paths: [writeLine(tmp, line(n))] }, { ...defaultIngestOptions(), isolation: 'inline' }, quiet)
      const times: number[] = []
      let hits = -1
      for (let k = 0; k < 3; k++) {
        const t = performance.now()
        hits = grepChunks(db.raw, pattern, { maxResults: 10, timeBudgetMs: 60_000 }).hits.length
        times.push(performance.now() - t)
      }
      console.log(`   grep (RE2),        N = ${String(n).padStart(6)}: median ${median(times).toFixed(1)} ms, ${hits} hits`)
    } finally {
      await db.close()
    }
  }
}

function writeLine(tmp: string, text: string): string {
  const file = join(tmp, `line-${text.length}.txt`)
  writeFileSync(file, `${text}\n`)
  return file
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const tmp = tempDir('harness-hostile-')
try {
  console.log(`Hostile ingest (node ${process.version}, ${new Date().toISOString()})`)
  if (section(1)) await deepHtmlFigures(tmp.dir)
  if (section(2) && !args.has('--skip-large')) await largeTextFigures(tmp.dir)
  if (section(3)) await determinismFigures(tmp.dir)
  if (section(4)) await zipBombFigures(tmp.dir)
  if (section(5)) await questionImportFigures(tmp.dir, ROWS, RUNS)
  if (section(6)) await regexFigures(tmp.dir)
} finally {
  tmp.cleanup()
}
