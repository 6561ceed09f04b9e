import type BetterSqlite3 from 'better-sqlite3'
import { cardStatements } from './statements'

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
  private readonly s

  constructor(
    raw: BetterSqlite3.Database,
    private readonly markers: HighlightMarkers,
    private readonly snippetTokens: number,
  ) {
    const tokens = Math.min(64, Math.max(1, Math.floor(snippetTokens)))
    this.s = cardStatements(raw, tokens)
  }

  load(chunkIds: readonly number[], expression: string | null): Map<number, ChunkCard> {
    const ids = JSON.stringify(chunkIds)
    const cards = new Map<number, ChunkCard>()
    // Roughly 12 characters per token is enough text to cut `snippetTokens` words from.
    const limit = this.snippetTokens * 12
    const rows = this.s.meta.all(limit, ids)
    for (const { head, ...row } of rows) {
      cards.set(row.chunkId, { ...row, snippet: openingWords(head, this.snippetTokens, head.length >= limit) })
    }
    if (expression) {
      const { open, close } = this.markers
      for (const card of cards.values()) {
        const snippet = this.s.snippet.get(open, close, SNIPPET_ELLIPSIS, expression, BigInt(card.chunkId))
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
