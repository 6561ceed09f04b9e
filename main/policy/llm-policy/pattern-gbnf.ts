/**
 * A JSON Schema `pattern` (an ECMAScript regular expression) as a GBNF expression for the inside
 * of a JSON string, for the subset of regular expressions tool schemas use for ids and codes:
 * literals, `.`, classes and ranges, \d \w \s, groups with alternation, and the quantifiers
 * ? * + {n} {n,} {n,m}. Anything else (look-arounds, back-references, \b, flags) returns null and
 * the pattern is left to validation.
 *
 * Everything generated is JSON-safe: quotes, backslashes and control characters are never produced
 * raw (a literal quote in the pattern becomes the escape \" in the JSON text), and \s stands for a
 * plain space. The grammar can be stricter than the regex there, never looser.
 */

/** Characters a JSON string may hold unescaped, as GBNF negations. */
const UNSAFE = '"\\\\\\x00-\\x1F\\x7F'
const ANY_SAFE = `[^${UNSAFE}]`

class Unsupported extends Error {}

/** A character as it may appear inside a GBNF character class. */
function classChar(ch: string): string {
  const code = ch.codePointAt(0)!
  if (/[A-Za-z0-9 ]/.test(ch) || code > 0x7f) return ch
  return `\\x${code.toString(16).padStart(2, '0')}`
}

/** The JSON text of one literal character, as a GBNF string literal. */
function literal(ch: string): string {
  const json = JSON.stringify(ch).slice(1, -1)
  return `"${json.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

type ClassItem = { from: string; to: string }

const DIGIT: ClassItem[] = [{ from: '0', to: '9' }]
const WORD: ClassItem[] = [{ from: 'a', to: 'z' }, { from: 'A', to: 'Z' }, { from: '0', to: '9' }, { from: '_', to: '_' }]
const SPACE: ClassItem[] = [{ from: ' ', to: ' ' }]

function classOf(items: ClassItem[], negated: boolean): string {
  const isUnsafe = (ch: string): boolean => ch === '"' || ch === '\\' || ch.codePointAt(0)! < 0x20 || ch === '\x7f'
  if (negated) {
    return `[^${items.map((i) => (i.from === i.to ? classChar(i.from) : `${classChar(i.from)}-${classChar(i.to)}`)).join('')}${UNSAFE}]`
  }
  // Positive classes drop the characters a JSON string cannot hold raw.
  const safe = items.filter((i) => !(i.from === i.to && isUnsafe(i.from)))
  if (safe.length === 0) throw new Unsupported('class of unsafe characters')
  return `[${safe.map((i) => (i.from === i.to ? classChar(i.from) : `${classChar(i.from)}-${classChar(i.to)}`)).join('')}]`
}

class Parser {
  private i = 0
  constructor(private readonly src: string) {}

  parse(): string {
    let source = this.src
    const anchoredStart = source.startsWith('^')
    // A final $ is an anchor unless an odd number of backslashes escapes it.
    const anchoredEnd = source.endsWith('$') && (/(\\*)\$$/.exec(source)![1]!.length % 2 === 0)
    if (anchoredStart) source = source.slice(1)
    if (anchoredEnd) source = source.slice(0, -1)
    const inner = new Parser(source).alternation(true)
    // An unanchored pattern only has to occur somewhere in the string.
    return `${anchoredStart ? '' : `${ANY_SAFE}* `}( ${inner} )${anchoredEnd ? '' : ` ${ANY_SAFE}*`}`
  }

  private peek(): string | undefined {
    return this.src[this.i]
  }

  alternation(top = false): string {
    const options = [this.sequence()]
    while (this.peek() === '|') {
      this.i++
      options.push(this.sequence())
    }
    if (top && this.i < this.src.length) throw new Unsupported(`unexpected ${this.src[this.i]}`)
    return options.length === 1 ? options[0]! : options.map((o) => `( ${o} )`).join(' | ')
  }

  private sequence(): string {
    const parts: string[] = []
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom()
      parts.push(atom + this.quantifier())
    }
    // An empty branch matches the empty string.
    return parts.length === 0 ? '""' : parts.join(' ')
  }

  private atom(): string {
    const ch = this.src[this.i++]!
    if (ch === '(') {
      if (this.src.startsWith('?:', this.i)) this.i += 2
      else if (this.peek() === '?') throw new Unsupported('look-around or named group')
      const inner = this.alternation()
      if (this.src[this.i++] !== ')') throw new Unsupported('unclosed group')
      return `( ${inner} )`
    }
    if (ch === '[') return this.charClass()
    if (ch === '.') return ANY_SAFE
    if (ch === '\\') return this.escape(false) as string
    if (ch === '^' || ch === '$') throw new Unsupported('anchor inside the pattern')
    if ('*+?{'.includes(ch)) throw new Unsupported('quantifier without an atom')
    return literal(ch)
  }

  private escape(inClass: boolean): string | ClassItem[] {
    const ch = this.src[this.i++]
    if (ch === undefined) throw new Unsupported('trailing backslash')
    const sets: Record<string, [ClassItem[], boolean]> = { d: [DIGIT, false], D: [DIGIT, true], w: [WORD, false], W: [WORD, true], s: [SPACE, false], S: [SPACE, true] }
    if (sets[ch]) {
      const [items, negated] = sets[ch]
      if (inClass) {
        if (negated) throw new Unsupported('negated escape inside a class')
        return items
      }
      return classOf(items, negated)
    }
    const controls: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' }
    let value: string
    if (controls[ch] !== undefined) value = controls[ch]
    else if (ch === 'u' && /^[0-9a-fA-F]{4}$/.test(this.src.slice(this.i, this.i + 4))) {
      value = String.fromCharCode(parseInt(this.src.slice(this.i, this.i + 4), 16))
      this.i += 4
    } else if (ch === 'x' && /^[0-9a-fA-F]{2}$/.test(this.src.slice(this.i, this.i + 2))) {
      value = String.fromCharCode(parseInt(this.src.slice(this.i, this.i + 2), 16))
      this.i += 2
    } else if (/[A-Za-z0-9]/.test(ch)) throw new Unsupported(`escape \\${ch}`)
    else value = ch
    return inClass ? [{ from: value, to: value }] : literal(value)
  }

  private charClass(): string {
    const negated = this.peek() === '^'
    if (negated) this.i++
    const items: ClassItem[] = []
    let first = true
    while (this.i < this.src.length && (this.peek() !== ']' || first)) {
      first = false
      let from: ClassItem[]
      const ch = this.src[this.i++]!
      if (ch === '\\') from = this.escape(true) as ClassItem[]
      else from = [{ from: ch, to: ch }]
      if (from.length === 1 && from[0]!.from === from[0]!.to && this.peek() === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++
        const end = this.src[this.i++]!
        const to = end === '\\' ? (this.escape(true) as ClassItem[]) : [{ from: end, to: end }]
        if (to.length !== 1 || to[0]!.from !== to[0]!.to) throw new Unsupported('range to a class')
        if (to[0]!.from < from[0]!.from) throw new Unsupported('reversed range')
        items.push({ from: from[0]!.from, to: to[0]!.from })
      } else items.push(...from)
    }
    if (this.src[this.i++] !== ']') throw new Unsupported('unclosed class')
    if (items.length === 0) throw new Unsupported('empty class')
    return classOf(items, negated)
  }

  private quantifier(): string {
    const ch = this.peek()
    let out = ''
    if (ch === '?' || ch === '*' || ch === '+') {
      this.i++
      out = ch
    } else if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i))
      if (!m) throw new Unsupported('malformed repetition')
      this.i += m[0].length
      const min = Number(m[1])
      const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3])
      if (max !== null && max < min) throw new Unsupported('repetition max below min')
      out = max === null ? `{${min},}` : max === min ? `{${min}}` : `{${min},${max}}`
    }
    // Lazy and greedy quantifiers match the same strings.
    if (out && this.peek() === '?') this.i++
    const next = this.peek()
    if (out && next !== undefined && '*+?{'.includes(next)) throw new Unsupported('stacked quantifiers')
    return out
  }
}

/** The GBNF for the characters between a JSON string's quotes, or null when the pattern is outside the subset. */
export function patternToGbnf(pattern: string): string | null {
  try {
    return new Parser(pattern).parse()
  } catch (error) {
    if (error instanceof Unsupported) return null
    throw error
  }
}
