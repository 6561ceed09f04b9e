import type { SourceDocument } from '../types'
import { requireText, titleFromPath } from './read'
import { tidyExtractedText, unifyLineEndings } from './whitespace'

/*
 * Markdown to the text a reader sees: syntax goes, words stay. Code is kept as text because it is
 * content people search for; images go (their alt text is mostly a file name); a table row becomes one
 * line with tab-separated cells, for pipe tables and pandoc grid tables alike. Follows CommonMark where it
 * matters for text (a link target with spaces is not a link), without building a full syntax tree.
 */

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

const decodeEntities = (text: string): string =>
  text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })

const LINK_TARGET = String.raw`\((?:<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)`
const IMAGE = new RegExp(String.raw`!\[[^\]\n]*\](?:${LINK_TARGET}|\[[^\]\n]*\])`, 'g')
// Empty link text is allowed: it is what a linked image (a README badge) leaves once the image is gone.
const LINK = new RegExp(String.raw`\[([^\]\n]*)\]${LINK_TARGET}`, 'g')
const REFERENCE_LINK = /\[([^\]\n]+)\]\[[^\]\n]*\]/g
const FOOTNOTE_REF = /\[\^[^\]\s]+\]/g
const AUTOLINK = /<((?:https?|ftp|mailto):[^>\s]+|[^@>\s]+@[^@>\s]+\.[^@>\s]+)>/gi
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g
const HTML_COMMENT = /<!--[\s\S]*?-->/g
const STRONG_STARS = /\*\*(?=\S)([\s\S]*?\S)\*\*/g
const STRONG_UNDERSCORES = /(?<![\p{L}\p{N}_])__(?=\S)([\s\S]*?\S)__(?![\p{L}\p{N}_])/gu
const EMPHASIS_STAR = /(?<![*\p{L}\p{N}])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![*\p{L}\p{N}])/gu
const EMPHASIS_UNDERSCORE = /(?<![\p{L}\p{N}_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\p{L}\p{N}_])/gu
const STRIKE = /~~(?=\S)([\s\S]*?\S)~~/g
const CODE_SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g
const ESCAPE = /\\([!-/:-@[-`{-~])/g
const PLACEHOLDER = /\u0000(\d+)\u0000/g

/** Inline syntax of one line (or table cell) removed; code spans and escaped characters are shielded first so nothing inside them is read as syntax. */
function stripInline(line: string): string {
  const shielded: string[] = []
  const shield = (text: string) => `\u0000${shielded.push(text) - 1}\u0000`
  let text = line
    .replace(CODE_SPAN, (_whole, _ticks: string, code: string) => shield(code.trim()))
    .replace(ESCAPE, (_whole, char: string) => shield(char))
    .replace(HTML_COMMENT, '')
    .replace(IMAGE, '')
    .replace(LINK, '$1')
    .replace(REFERENCE_LINK, '$1')
    .replace(FOOTNOTE_REF, '')
    .replace(AUTOLINK, '$1')
    .replace(HTML_TAG, '')
  for (const pattern of [STRONG_STARS, STRONG_UNDERSCORES, EMPHASIS_STAR, EMPHASIS_UNDERSCORE, STRIKE]) text = text.replace(pattern, '$1')
  return decodeEntities(text).replace(PLACEHOLDER, (_whole, index: string) => shielded[Number(index)] ?? '')
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$/
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]^][^\]]*\]:\s*\S/
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^[^\]]+\]:\s*/
const BLOCKQUOTE = /^(?: {0,3}>[ \t]?)+/
const LIST_MARKER = /^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/
const PIPE_SEPARATOR_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$|^[ \t]*\|[ \t]*:?-+:?[ \t]*\|[ \t]*$/
const GRID_BORDER = /^[ \t]*\+[-=:+ \t]*\+[ \t]*$/
const BORDER_CELL = /^[-=:+ \t]*$/

/** Cells of a pipe or grid table row, unescaped pipes only; border fragments of nested grid tables are dropped. */
const tableCells = (row: string): string[] =>
  row
    .trim()
    .split(/(?<!\\)\|/)
    .map((cell) => stripInline(cell.trim()))
    .filter((cell) => cell !== '' && !BORDER_CELL.test(cell))

const isTableRow = (line: string): boolean => {
  const trimmed = line.trim()
  return trimmed.startsWith('|') && /.\|/.test(trimmed)
}

/** Title from a YAML front matter block, if the file opens with one. */
function frontMatter(lines: string[]): { end: number; title: string | null } {
  if (lines[0]?.trim() !== '---') return { end: 0, title: null }
  const close = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'))
  if (close < 0) return { end: 0, title: null }
  const titleLine = lines.slice(1, close).find((line) => /^title\s*:/i.test(line))
  const title = titleLine?.replace(/^title\s*:\s*/i, '').replace(/^(["'])(.*)\1$/, '$2').trim()
  return { end: close + 1, title: title || null }
}

export function markdownToText(markdown: string): { text: string; title: string | null } {
  const lines = unifyLineEndings(markdown).split('\n')
  const front = frontMatter(lines)
  let heading: string | null = null
  const out: string[] = []
  let fence: string | null = null
  let inTable = false
  let inComment = false
  let previousWasParagraph = false

  for (let i = front.end; i < lines.length; i++) {
    let line = lines[i]!
    if (fence !== null) {
      const close = FENCE.exec(line)
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length && line.trim() === close[1]) fence = null
      else out.push(line)
      continue
    }
    if (inComment) {
      const end = line.indexOf('-->')
      if (end < 0) continue
      inComment = false
      line = line.slice(end + 3)
    }
    line = line.replace(HTML_COMMENT, '')
    const open = line.indexOf('<!--')
    if (open >= 0) {
      inComment = true
      line = line.slice(0, open)
    }

    const fenceOpen = FENCE.exec(line)
    if (fenceOpen) {
      fence = fenceOpen[1]!
      previousWasParagraph = false
      continue
    }
    if (line.trim() === '') {
      out.push('')
      inTable = false
      previousWasParagraph = false
      continue
    }
    if (SETEXT_UNDERLINE.test(line) && previousWasParagraph && !inTable) {
      // The paragraph line just emitted was a heading.
      heading ??= out[out.length - 1]?.trim() || null
      previousWasParagraph = false
      continue
    }
    if (THEMATIC_BREAK.test(line) || GRID_BORDER.test(line) || PIPE_SEPARATOR_ROW.test(line)) {
      previousWasParagraph = false
      continue
    }
    const next = lines[i + 1] ?? ''
    if (isTableRow(line) || (line.includes('|') && (inTable || (PIPE_SEPARATOR_ROW.test(next) && next.includes('|'))))) {
      inTable = true
      const cells = tableCells(line)
      if (cells.length > 0) out.push(cells.join('\t'))
      previousWasParagraph = false
      continue
    }
    const atx = ATX_HEADING.exec(line)
    if (atx) {
      const text = stripInline(atx[1] ?? '').trim()
      heading ??= text || null
      out.push(text)
      previousWasParagraph = false
      continue
    }
    if (REFERENCE_DEFINITION.test(line)) continue
    const container = LIST_MARKER.test(line) || BLOCKQUOTE.test(line)
    line = line.replace(FOOTNOTE_DEFINITION, '').replace(BLOCKQUOTE, '').replace(LIST_MARKER, '')
    out.push(stripInline(line))
    // Only a plain paragraph line can become a setext heading; "---" under a list item is a rule.
    previousWasParagraph = !container
  }
  return { text: tidyExtractedText(out.join('\n')), title: heading ?? front.title }
}

export function parseMarkdown(source: string, relPath: string): SourceDocument {
  const { text, title } = markdownToText(source)
  requireText(text, relPath, 'no text is left once the Markdown syntax is removed')
  return { externalId: relPath, title: title ?? titleFromPath(relPath), text, source: { path: relPath } }
}
