/** Reading the values comparison questions compare: a year from a date mention, an amount from a number mention. */

/** The year a date mention names (1000..2199), or null ("17 April 1979" -> 1979, "the 1980s" -> null). */
export function yearOf(surface: string): number | null {
  // Decades and decimals ("the 1980s", "2015.3") are no year.
  if (/\d{4}s\b|\d\.\d/.test(surface)) return null
  // Years before the common era would subtract the wrong way ("1800 BC" and 1066 are not 734 years apart).
  if (/\b(BC|BCE|B\.C\.?)(?![\p{L}])/u.test(surface)) return null
  const years = [...surface.matchAll(/\b(1\d{3}|20\d{2}|21\d{2})\b/g)].map((m) => Number(m[1]))
  return years.length === 1 ? years[0]! : null
}

export type AmountUnit = 'money' | 'percent' | 'count'

const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12, k: 1e3, m: 1e6, mn: 1e6, bn: 1e9, b: 1e9 }

/** The amount a number mention names with its unit class, or null when it is not one plain amount. */
export function amountOf(surface: string, type: string): { value: number; unit: AmountUnit } | null {
  const m = /^\s*(?:US)?\$?\s*(-?\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion|trillion|bn|mn|k|m|b)?\b\s*(%|percent|per cent)?/i.exec(surface)
  if (!m) return null
  const digits = m[1]!.replace(/,/g, '')
  // "1,000" is a thousand; "1,00" is not a number we trust.
  if (m[1]!.includes(',') && !/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(m[1]!)) return null
  const value = Number(digits) * (m[2] ? (SCALES[m[2].toLowerCase()] ?? 1) : 1)
  if (!Number.isFinite(value)) return null
  const unit: AmountUnit = m[3] || type === 'PERCENT' ? 'percent' : type === 'MONEY' || surface.includes('$') ? 'money' : 'count'
  return { value, unit }
}
