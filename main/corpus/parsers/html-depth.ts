/**
 * How deep the elements of an HTML page nest, from a linear scan of its tags, before any DOM is built:
 * deep nesting is what makes DOM work slow (Readability is cubic in depth, linkedom's parser turns
 * quadratic in the tens of thousands), and a page nested 10,000 levels deep is never an article.
 *
 * The scan follows the tree builder of linkedom's parser (htmlparser2) closely enough for a limit:
 * void elements and `<x/>` never open a level, script/style/textarea/title content is skipped, the
 * implied closes of optional end tags apply ("<p>" closes an open "<p>", "<li>" an open "<li>", ...),
 * and a closing tag closes up to its matching open element, or nothing when none is open.
 */

const VOID = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'image', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr'])
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'])

const P = new Set(['p'])
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'])
const BLOCKS_CLOSING_P = [
  'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul',
]
/** Open elements that opening the key closes first (htmlparser2's openImpliesClose). */
const IMPLIES_CLOSE: Record<string, ReadonlySet<string>> = {
  tr: new Set(['tr', 'th', 'td']),
  th: new Set(['th']),
  td: new Set(['thead', 'th', 'td']),
  body: new Set(['head', 'link', 'script']),
  li: new Set(['li']),
  select: FORM,
  input: FORM,
  output: FORM,
  button: FORM,
  datalist: FORM,
  textarea: FORM,
  option: new Set(['option']),
  optgroup: new Set(['optgroup', 'option']),
  dd: new Set(['dt', 'dd']),
  dt: new Set(['dt', 'dd']),
  rt: new Set(['rt', 'rp']),
  rp: new Set(['rt', 'rp']),
  tbody: new Set(['thead', 'tbody']),
  tfoot: new Set(['thead', 'tbody']),
}
for (const name of BLOCKS_CLOSING_P) IMPLIES_CLOSE[name] ??= P

const isNameStart = (code: number): boolean => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)
const isNameChar = (code: number): boolean => isNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x3a || code === 0x5f

/** End (index after '>') of the tag whose attributes start at `i`, honouring quoted values; and whether it ends in "/>". */
function tagEnd(html: string, i: number): { end: number; selfClosing: boolean } {
  let quote = 0
  for (let k = i; k < html.length; k++) {
    const code = html.charCodeAt(k)
    if (quote) {
      if (code === quote) quote = 0
    } else if (code === 0x22 || code === 0x27) quote = code
    else if (code === 0x3e) return { end: k + 1, selfClosing: html.charCodeAt(k - 1) === 0x2f }
  }
  return { end: html.length, selfClosing: false }
}

/**
 * The deepest element nesting of `html`, estimated from its tags in one pass (amortised linear: an
 * element is opened and closed once). `stopAbove` ends the scan as soon as the depth passes it.
 */
export function htmlNestingDepth(html: string, stopAbove = Infinity): number {
  const stack: string[] = []
  const open = new Map<string, number>()
  const push = (name: string) => {
    stack.push(name)
    open.set(name, (open.get(name) ?? 0) + 1)
  }
  const pop = (): string => {
    const name = stack.pop()!
    open.set(name, open.get(name)! - 1)
    return name
  }
  let max = 0
  let i = 0
  for (;;) {
    i = html.indexOf('<', i)
    if (i < 0 || i + 1 >= html.length) break
    const next = html.charCodeAt(i + 1)
    if (html.startsWith('<!--', i)) {
      const close = html.indexOf('-->', i + 4)
      i = close < 0 ? html.length : close + 3
      continue
    }
    if (next === 0x21 || next === 0x3f) {
      // <!DOCTYPE ...>, <![CDATA[ ... ]]>, <?xml ...?>
      const close = html.indexOf('>', i + 2)
      i = close < 0 ? html.length : close + 1
      continue
    }
    const closing = next === 0x2f
    let k = closing ? i + 2 : i + 1
    if (!isNameStart(html.charCodeAt(k))) {
      i += 1
      continue
    }
    const nameStart = k
    while (k < html.length && isNameChar(html.charCodeAt(k))) k++
    const name = html.slice(nameStart, k).toLowerCase()
    const { end, selfClosing } = tagEnd(html, k)
    i = end
    if (closing) {
      if ((open.get(name) ?? 0) > 0) while (pop() !== name);
      continue
    }
    const implied = IMPLIES_CLOSE[name]
    if (implied) while (stack.length > 0 && implied.has(stack[stack.length - 1]!)) pop()
    if (VOID.has(name) || selfClosing) continue
    if (RAW_TEXT.has(name)) {
      // Content up to the matching end tag is text, not markup.
      const close = indexOfEndTag(html, name, i)
      i = close < 0 ? html.length : close
      continue
    }
    push(name)
    if (stack.length > max) {
      max = stack.length
      if (max > stopAbove) return max
    }
  }
  return max
}

/** Index of `</name` (any case) at or after `from`, or -1. */
function indexOfEndTag(html: string, name: string, from: number): number {
  const re = new RegExp(`</${name}[\\s/>]`, 'ig')
  re.lastIndex = from
  const match = re.exec(html)
  return match ? match.index : -1
}
