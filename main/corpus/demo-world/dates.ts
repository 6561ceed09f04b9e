import type { Rng } from './rng'
import { MONTHS } from './vocabulary'

export interface DateParts {
  year: number
  /** 1-12 */
  month: number
  day: number
}

/** February has 28 days here: the world has no need of leap days, and every drawn date is valid. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const

export function randomDate(rng: Rng, year: number): DateParts {
  const month = rng.int(1, 12)
  return { year, month, day: rng.int(1, MONTH_DAYS[month - 1] ?? 28) }
}

export const monthName = (d: DateParts): string => MONTHS[d.month - 1] ?? 'January'

/**
 * The formats an encyclopedia mixes: "14 March 1872", "March 14, 1872", ISO "1872-03-14". Every format
 * contains the four-digit year, which questions and tests rely on; none contains a period.
 */
export type DateStyle = 'dmy' | 'mdy' | 'iso'

export function formatDate(d: DateParts, style: DateStyle): string {
  switch (style) {
    case 'dmy':
      return `${d.day} ${monthName(d)} ${d.year}`
    case 'mdy':
      return `${monthName(d)} ${d.day}, ${d.year}`
    case 'iso':
      return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`
  }
}

/** Whole years between two dates, as an age is counted. */
export function yearsBetween(from: DateParts, to: DateParts): number {
  const before = to.month < from.month || (to.month === from.month && to.day < from.day)
  return to.year - from.year - (before ? 1 : 0)
}

export const compareDates = (a: DateParts, b: DateParts): number => a.year - b.year || a.month - b.month || a.day - b.day

export function ordinal(n: number): string {
  const tens = n % 100
  if (tens >= 11 && tens <= 13) return `${n}th`
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`
}

export const century = (year: number): string => `${ordinal(Math.floor((year - 1) / 100) + 1)} century`
export const decade = (year: number): string => `${Math.floor(year / 10) * 10}s`
