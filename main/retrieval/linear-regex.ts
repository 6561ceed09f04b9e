import { RE2JS } from 're2js'
import { RetrievalError } from './types'

/**
 * User- and agent-supplied patterns run on RE2 (re2js, a pure-JS port): matching time is linear in
 * the text, so a pattern like `(\w+\s?)+$` cannot stall the process the way a backtracking
 * JavaScript RegExp does (one such match cannot be interrupted by any time budget).
 * The syntax is JavaScript's minus the constructs that need backtracking.
 */

const ALLOWED_FLAGS = new Set(['i', 'm', 's', 'u', 'v'])

/** One match: UTF-16 offsets into the searched string, like RegExp's `index`. */
export interface LinearMatch {
  index: number
  text: string
}

export interface LinearPattern {
  /** Fast yes/no over the whole text (RE2's DFA); use it before asking for positions. */
  test(text: string): boolean
  /** Non-empty matches, left to right; empty matches are skipped. */
  matches(text: string): Iterable<LinearMatch>
}

/** Compiles a user pattern; a bad pattern, flag or unsupported construct is a RetrievalError naming it. */
export function compileLinear(pattern: string, flags = ''): LinearPattern {
  if (pattern.length === 0) throw new RetrievalError('invalid-regex', 'Empty grep pattern')
  const unique = new Set(flags.replace(/[gy]/g, ''))
  for (const f of unique) {
    if (!ALLOWED_FLAGS.has(f)) throw new RetrievalError('invalid-regex', `Unsupported regex flag "${f}" (allowed: i, m, s, u, v)`)
  }
  const unsupported = unsupportedConstruct(pattern)
  if (unsupported) throw invalid(pattern, `${unsupported} is not supported: patterns run on a linear-time engine (RE2), which has no backtracking`)
  // u and v need no counterpart: RE2 always matches by code point.
  let bits = 0
  if (unique.has('i')) bits |= RE2JS.CASE_INSENSITIVE
  if (unique.has('m')) bits |= RE2JS.MULTILINE
  if (unique.has('s')) bits |= RE2JS.DOTALL
  let re: RE2JS
  try {
    // translateRegExp maps JavaScript-only spellings (named groups `(?<n>`, `\/`) to RE2's.
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), bits)
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err)
    throw invalid(pattern, message)
  }
  return {
    test: (text) => re.test(text),
    *matches(text) {
      const m = re.matcher(text)
      while (m.find()) {
        const start = m.start()
        const end = m.end()
        if (end > start) yield { index: start, text: text.slice(start, end) }
      }
    },
  }
}

function invalid(pattern: string, why: string): RetrievalError {
  return new RetrievalError('invalid-regex', `Invalid regular expression /${pattern}/: ${why}`)
}

/** The first backtracking-only construct outside character classes, named for the error, or undefined. */
export function unsupportedConstruct(pattern: string): string | undefined {
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\') {
      const next = pattern[i + 1] ?? ''
      if (!inClass && /[1-9]/.test(next)) return `the backreference \\${pattern.slice(i + 1).match(/^\d+/)![0]}`
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return 'the named backreference \\k<…>'
      i++
      continue
    }
    if (inClass) {
      if (c === ']') inClass = false
      continue
    }
    if (c === '[') {
      inClass = true
      // A leading ] (or ^]) is a literal inside the class.
      if (pattern[i + 1] === '^') i++
      if (pattern[i + 1] === ']') i++
      continue
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const head = pattern.slice(i + 2, i + 4)
      if (head.startsWith('=')) return 'the lookahead (?=…)'
      if (head.startsWith('!')) return 'the negative lookahead (?!…)'
      if (head === '<=') return 'the lookbehind (?<=…)'
      if (head === '<!') return 'the negative lookbehind (?<!…)'
    }
  }
  return undefined
}
