import type BetterSqlite3 from 'better-sqlite3'
import { parseNodeId } from './node-id'
import { loadNodes } from './nodes'
import { prepared } from './statements'
import { GraphError, type GraphNode } from './types'

export const MAX_SEARCH_RESULTS = 200

/** Lower case with diacritics dropped, as entity canonical keys are, so "zurich" finds "Zürich". */
function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()
}

const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`)

// LIKE folds ASCII case only; the canonical column covers the rest (it is folded at ingest).
const SEARCH_SQL = `select e.id,
    case
      when lower(e.name) = :q or e.canonical = :f then 0
      when e.name like :prefix escape '\\' or e.canonical like :fprefix escape '\\' then 1
      when e.name like :word escape '\\' or e.canonical like :fword escape '\\' then 2
      else 3
    end as rank,
    (select count(*) from mentions m where m.entity_id = e.id) as mentions
  from entities e
  where e.name like :any escape '\\' or e.canonical like :fany escape '\\'
  order by rank, e.lookup_ok desc, mentions desc, length(e.name), e.id
  limit :limit`

/**
 * Entities whose name contains `text` (case- and accent-insensitive): exact names first, then
 * prefixes, then word prefixes, then other substrings; LOOKUP targets and often-mentioned entities
 * first within each. A node id (`e:12`, `s:7`, `p:3`) finds that node.
 */
export function searchNodes(raw: BetterSqlite3.Database, text: string, limit: number): GraphNode[] {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_RESULTS) {
    throw new GraphError('bad-argument', `limit must be an integer from 1 to ${MAX_SEARCH_RESULTS}, got ${String(limit)}`)
  }
  const query = text.replace(/\s+/g, ' ').trim()
  if (!query) return []
  if (/^[pse]:[1-9]\d{0,15}$/.test(query)) {
    const ref = parseNodeId(query)
    const node = loadNodes(raw, ref.kind, [ref.rowId]).get(ref.rowId)
    return node ? [node] : []
  }
  const q = query.toLowerCase()
  const f = fold(query)
  const [lq, lf] = [likeEscape(q), likeEscape(f)]
  const rows = prepared<Record<string, string | number>, { id: number }>(raw, SEARCH_SQL).all({
    q,
    f,
    prefix: `${lq}%`,
    fprefix: `${lf}%`,
    word: `% ${lq}%`,
    fword: `% ${lf}%`,
    any: `%${lq}%`,
    fany: `%${lf}%`,
    limit,
  })
  const ids = rows.map((r) => r.id)
  const nodes = loadNodes(raw, 'entity', ids)
  return ids.map((id) => nodes.get(id)!)
}
