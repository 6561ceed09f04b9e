/**
 * A model's menu reply, read tolerantly: real models wrap the id ("S2.", "\"S2\"", "I choose S2",
 * `{"menu_id": "S2"}`) or think first (`<think>...</think>S2`). The reply names an item when, after a
 * leading think block is dropped, exactly one distinct menu id appears in it as a whole word (ids are
 * case-sensitive), or a JSON object gives it as `menu_id` / `id`. Two different ids, none, an unclosed
 * think block or an empty reply are format errors. Shared by the sentence environments' text parse (so
 * the environment server and the app's LLM policy read replies the same way).
 */

export type MenuReply = { id: string } | { formatError: string }

const THINK = /^\s*<think>[\s\S]*?<\/think>/i

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export function parseMenuReply(reply: string, ids: readonly string[]): MenuReply {
  let text = reply.trim()
  if (/^<think>/i.test(text)) {
    const think = THINK.exec(text)
    if (!think) return { formatError: 'the <think> block is never closed: end it with </think>, then reply with one id from the menu' }
    text = text.slice(think[0].length).trim()
  }
  if (text === '') return { formatError: 'empty output: reply with exactly one id from the menu' }
  if (ids.includes(text)) return { id: text }
  const listed = ids.join(', ') || 'none: the episode is over'
  if (text.startsWith('{')) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return { formatError: `expected exactly one available id (${listed}), got unparseable JSON ${JSON.stringify(clip(text, 80))}` }
    }
    const named = value && typeof value === 'object' ? ((value as Record<string, unknown>).menu_id ?? (value as Record<string, unknown>).id) : undefined
    if (typeof named === 'string' && ids.includes(named.trim())) return { id: named.trim() }
    return { formatError: `expected {"menu_id": <one of ${listed}>}, got ${JSON.stringify(clip(text, 80))}` }
  }
  const found = new Set<string>()
  if (ids.length > 0) {
    // Longest ids first, so S12 is not read as S1.
    const alternation = [...ids].sort((a, b) => b.length - a.length).map(escape).join('|')
    for (const m of text.matchAll(new RegExp(`(?<![A-Za-z0-9_])(?:${alternation})(?![A-Za-z0-9_])`, 'g'))) found.add(m[0])
  }
  if (found.size === 1) return { id: [...found][0]! }
  if (found.size > 1) return { formatError: `ambiguous reply: it names ${[...found].join(' and ')}; reply with exactly one id (${listed})` }
  return { formatError: `expected exactly one available id (${listed}), got ${JSON.stringify(clip(text, 80))}` }
}
