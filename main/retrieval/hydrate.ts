import type BetterSqlite3 from 'better-sqlite3'

/** Default highlight markers: control characters never occur in ingested prose, so they cannot collide with text. */
export const HIGHLIGHT_OPEN = '\u0001'
export const HIGHLIGHT_CLOSE = '\u0002'
export const SNIPPET_ELLIPSIS = '…'

export interface HighlightMarkers {
  open: string
  close: string
}

export interface ChunkCard {
  chunkId: number
  documentId: number
  ord: number
  title: string
  snippet: string
}

/** Replaces the default markers, e.g. with `<mark>`/`</mark>` for HTML or `**` for a model prompt. */
export function renderHighlights(snippet: string, open: string, close: string): string {
  return snippet.split(HIGHLIGHT_OPEN).join(open).split(HIGHLIGHT_CLOSE).join(close)
}

/**
 * Title, document and snippet for the few chunks that made the final list. Chunks that match the
 * query get an FTS5 snippet of their text column; the rest (dense-only hits) get their opening words.
 */
export class ChunkCards {
  private readonly meta: BetterSqlite3.Statement
  private readonly snippet: BetterSqlite3.Statement

  constructor(
    raw: BetterSqlite3.Database,
    private readonly markers: HighlightMarkers,
    private readonly snippetTokens: number,
  ) {
    const tokens = Math.min(64, Math.max(1, Math.floor(snippetTokens)))
    this.meta = raw.prepare(
      `select c.id as chunkId, c.document_id as documentId, c.ord as ord, d.title as title, substr(c.text, 1, ?) as head
       from chunks c join documents d on d.id = c.document_id where c.id in (select value from json_each(?))`,
    )
    // One lookup per chunk: FTS5 seeks on `rowid = ?`, whereas `rowid in (...)` walks every match of the query.
    // The id must be bound as a BigInt: better-sqlite3 binds JS numbers as REAL, and FTS5 (SQLite 3.53)
    // silently drops a REAL rowid constraint that accompanies MATCH, returning every matching row.
    this.snippet = raw.prepare(
      `select snippet(chunks_fts, 1, ?, ?, ?, ${tokens}) from chunks_fts where chunks_fts match ? and rowid = ?`,
    ).pluck()
  }

  load(chunkIds: readonly number[], expression: string | null): Map<number, ChunkCard> {
    const ids = JSON.stringify(chunkIds)
    const cards = new Map<number, ChunkCard>()
    // Roughly 12 characters per token is enough text to cut `snippetTokens` words from.
    const limit = this.snippetTokens * 12
    const rows = this.meta.all(limit, ids) as (Omit<ChunkCard, 'snippet'> & { head: string })[]
    for (const { head, ...row } of rows) {
      cards.set(row.chunkId, { ...row, snippet: openingWords(head, this.snippetTokens, head.length >= limit) })
    }
    if (expression) {
      const { open, close } = this.markers
      for (const card of cards.values()) {
        const snippet = this.snippet.get(open, close, SNIPPET_ELLIPSIS, expression, BigInt(card.chunkId)) as string | undefined
        if (snippet !== undefined) card.snippet = snippet
      }
    }
    return cards
  }
}

function openingWords(text: string, count: number, cut: boolean): string {
  const words = text.split(/\s+/).filter(Boolean)
  const kept = words.slice(0, count).join(' ')
  return words.length > count || cut ? `${kept}${SNIPPET_ELLIPSIS}` : kept
}
