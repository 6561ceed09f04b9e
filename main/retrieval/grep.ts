import type BetterSqlite3 from 'better-sqlite3'
import { compileLinear } from './linear-regex'
import { grepRows } from './statements'
import { RetrievalError, type GrepHit, type GrepOptions, type GrepResult } from './types'

/** Rows scanned between clock reads: Date.now() per row would dominate on short chunks. */
const CLOCK_EVERY = 32
const DEFAULT_CONTEXT = 60

/**
 * Regex over chunk text in chunk id order, streaming rows through a statement iterator. Stops at
 * `maxResults` hits, when `maxScanChars` characters of chunk text have been scanned (a work budget:
 * where it stops depends on the corpus and the pattern alone, never on how busy the machine is), or
 * when `timeBudgetMs` is spent (the wall-clock safety net, checked every CLOCK_EVERY rows and after
 * each chunk that yielded hits; `timedOut` says it fired). Empty matches are skipped. Patterns run on
 * RE2 (linear-regex.ts), so no single chunk can take longer than a pass over its text: both budgets
 * always get their turn.
 */
export function grepChunks(raw: BetterSqlite3.Database, pattern: string, options: GrepOptions): GrepResult {
  const maxResults = Math.floor(options.maxResults)
  if (!(maxResults >= 1)) throw new RetrievalError('bad-argument', `grep maxResults must be >= 1, got ${options.maxResults}`)
  if (!(options.timeBudgetMs > 0)) throw new RetrievalError('bad-argument', `grep timeBudgetMs must be > 0, got ${options.timeBudgetMs}`)
  const maxScanChars = options.maxScanChars ?? Infinity
  if (!(maxScanChars > 0)) throw new RetrievalError('bad-argument', `grep maxScanChars must be > 0, got ${options.maxScanChars}`)
  const regex = compileLinear(pattern, options.flags)
  const contextChars = Math.max(0, options.contextChars ?? DEFAULT_CONTEXT)
  const exclude = new Set(options.excludeChunkIds ?? [])
  const deadline = performance.now() + options.timeBudgetMs

  const rows = grepRows(raw, options.documentIds ? JSON.stringify(options.documentIds) : null)

  const hits: GrepHit[] = []
  let truncated = false
  let timedOut = false
  let scanBudgetSpent = false
  let scanned = 0
  let scannedChars = 0
  let hadHits = false
  // Leaving the for-of early closes the iterator, which resets the statement and frees the connection.
  // The clock is read at the top of a row, so a time-out always means some rows went unscanned.
  for (const row of rows) {
    if (scanned > 0 && (hadHits || scanned % CLOCK_EVERY === 0) && performance.now() > deadline) {
      timedOut = true
      break
    }
    if (exclude.has(row.chunkId)) {
      scanned++
      continue
    }
    // The work budget is read before the row, so a spent budget always means some rows went unscanned.
    if (scannedChars >= maxScanChars) {
      scanBudgetSpent = true
      break
    }
    scanned++
    scannedChars += row.text.length
    const before = hits.length
    if (!regex.test(row.text)) {
      hadHits = false
      continue
    }
    for (const m of regex.matches(row.text)) {
      if (hits.length === maxResults) {
        truncated = true
        break
      }
      hits.push({
        chunkId: row.chunkId,
        documentId: row.documentId,
        title: row.title,
        line: lineOf(row.text, m.index),
        offset: m.index,
        documentOffset: row.startChar + m.index,
        match: m.text,
        context: contextAround(row.text, m.index, m.index + m.text.length, contextChars),
      })
    }
    if (truncated) break
    // A chunk with many matches is the slow kind: read the clock before the next one.
    hadHits = hits.length > before
  }
  return { hits, truncated, timedOut, scanBudgetSpent, scannedChunks: scanned, scannedChars }
}

function lineOf(text: string, index: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++
  return line
}

/** The match with up to `chars` characters either side, never crossing a line break. */
function contextAround(text: string, start: number, end: number, chars: number): string {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1
  const nextBreak = text.indexOf('\n', end)
  const lineEnd = nextBreak === -1 ? text.length : nextBreak
  const from = Math.max(lineStart, start - chars)
  const to = Math.min(lineEnd, end + chars)
  return `${from > lineStart ? '…' : ''}${text.slice(from, to)}${to < lineEnd ? '…' : ''}`
}
