/**
 * Alias resolution inside one document: a surname-only mention ("Lovelace") joins the unique
 * full personal name of the document that ends with it ("Ada Lovelace"), and an acronym ("IBM") joins the
 * name whose initials it spells ("International Business Machines") when both occur. Anything
 * ambiguous (two Curies) is left alone: a wrong merge costs more in a graph than a missed one.
 */
import type { Mention } from './types'

const ALIASABLE = new Set(['PERSON', 'NAME'])
const INITIAL_SKIP = new Set(['of', 'and', 'the', 'for', 'on', 'in', 'de', 'du', 'la', 'le', 'von', 'van', 'der'])

/** Upper-case initials of a canonical name: "international business machines" -> "IBM". */
function initials(canonical: string): string {
  return canonical
    .split(' ')
    .filter((w) => w && !INITIAL_SKIP.has(w))
    .map((w) => w[0]!.toUpperCase())
    .join('')
}

const isAcronym = (surface: string): boolean => /^(?:\p{Lu}\.?){2,8}s?$/u.test(surface.trim())

/**
 * Map from each mention's canonical key to the key it should be merged into (itself when no alias
 * applies). Pass one document's mentions; keys are `Mention.canonical` values.
 */
export function buildAliasMap(mentions: readonly Mention[]): Map<string, string> {
  const map = new Map<string, string>()
  const fullBySurname = new Map<string, Set<string>>()
  const multiWord: string[] = []
  for (const m of mentions) {
    const key = m.canonical
    if (!key) continue
    const seen = map.has(key)
    if (!seen) map.set(key, key)
    const words = key.split(' ')
    if (words.length < 2) continue
    if (!seen) multiWord.push(key)
    if (m.type !== 'PERSON') continue
    const last = words[words.length - 1]!
    const set = fullBySurname.get(last) ?? new Set<string>()
    set.add(key)
    fullBySurname.set(last, set)
  }
  // Surname only: merge when exactly one full personal name in the document ends with it.
  for (const m of mentions) {
    if (!ALIASABLE.has(m.type) || m.canonical.includes(' ')) continue
    const fulls = fullBySurname.get(m.canonical)
    if (fulls && fulls.size === 1) map.set(m.canonical, [...fulls][0]!)
  }
  // Acronyms may come before or after the expansion ("IBM ... International Business Machines (IBM)").
  const byInitials = new Map<string, Set<string>>()
  for (const key of multiWord) {
    const ini = initials(key)
    if (ini.length < 2) continue
    const set = byInitials.get(ini) ?? new Set<string>()
    set.add(key)
    byInitials.set(ini, set)
  }
  for (const m of mentions) {
    if (!isAcronym(m.surface)) continue
    const letters = m.surface.replace(/[.\s]/g, '').replace(/s$/, '').toUpperCase()
    const expansions = byInitials.get(letters)
    if (expansions && expansions.size === 1) map.set(m.canonical, [...expansions][0]!)
  }
  return map
}

/** The representative key for `canonical` under `aliases` (the key itself when not aliased). */
export function resolveAlias(aliases: ReadonlyMap<string, string>, canonical: string): string {
  return aliases.get(canonical) ?? canonical
}
