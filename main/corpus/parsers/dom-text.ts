import { tidyExtractedText } from './whitespace'

/**
 * The slice of the DOM API the text walker needs, so it works on linkedom nodes without the DOM lib
 * in the TypeScript configuration.
 */
export interface DomNode {
  nodeType: number
  nodeName: string
  nodeValue: string | null
  childNodes: ArrayLike<DomNode>
}

const TEXT_NODE = 3
const ELEMENT_NODE = 1

/** Elements whose content is never reading text. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'SELECT', 'BUTTON'])
/** Blocks that start a new paragraph (a blank line in the output). */
const PARAGRAPHS = new Set([
  'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'TABLE', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'DL', 'SECTION', 'ARTICLE',
  'HEADER', 'FOOTER', 'ASIDE', 'FIGURE', 'HR', 'MAIN', 'ADDRESS', 'DETAILS',
])
/** Blocks that start a new line. */
const LINES = new Set(['DIV', 'LI', 'TR', 'DT', 'DD', 'FIGCAPTION', 'CAPTION', 'SUMMARY', 'LEGEND', 'FIELDSET', 'FORM', 'NAV', 'TBODY', 'THEAD', 'TFOOT'])
const CELLS = new Set(['TD', 'TH'])

interface Frame {
  node: DomNode
  pre: boolean
  /** Set on the frame that closes an element: the line breaks it ends with, or a tab for a cell. */
  close?: { breaks: number; cell: boolean }
}

/**
 * Text of a DOM subtree with the line structure a browser would show: `textContent` alone glues
 * adjacent blocks ("FORM 10-K(Mark One)"), which breaks words and sentences. Table cells are separated by
 * tabs, rows and blocks by line breaks, paragraphs by a blank line; whitespace inside text collapses as
 * in HTML, except that line breaks inside <pre> are kept. The walk keeps its own stack, so any nesting
 * depth is fine, and reads each node's children once (linkedom builds `childNodes` on every access).
 */
export function domText(root: DomNode): string {
  const parts: string[] = []
  let trailingBreaks = 1 // the start counts as a fresh line, so leading whitespace is dropped
  const push = (text: string) => {
    if (text === '') return
    parts.push(text)
    const end = /\n*$/.exec(text)![0].length
    trailingBreaks = end === text.length ? trailingBreaks + end : end
  }
  /** At least `count` line breaks at the end of the output so far (never more than asked for by one block). */
  const breakLines = (count: number) => {
    if (parts.length > 0 && trailingBreaks < count) push('\n'.repeat(count - trailingBreaks))
  }
  const stack: Frame[] = [{ node: root, pre: false }]
  while (stack.length > 0) {
    const { node, pre, close } = stack.pop()!
    if (close) {
      if (close.cell) push('\t')
      else breakLines(close.breaks)
      continue
    }
    if (node.nodeType === TEXT_NODE) {
      const value = pre ? (node.nodeValue ?? '') : (node.nodeValue ?? '').replace(/[ \t\n\r\f]+/g, ' ')
      // Whitespace between blocks is not text; inside a line it separates words.
      if (value.trim() === '' && (trailingBreaks > 0 || value === '')) continue
      push(value)
      continue
    }
    if (node.nodeType !== ELEMENT_NODE && node.nodeType !== 9 && node.nodeType !== 11) continue
    const name = node.nodeName.toUpperCase()
    if (SKIPPED.has(name)) continue
    if (name === 'BR') {
      push('\n')
      continue
    }
    const breaks = PARAGRAPHS.has(name) ? 2 : LINES.has(name) ? 1 : 0
    breakLines(breaks)
    const inPre = pre || name === 'PRE'
    stack.push({ node, pre: inPre, close: { breaks, cell: CELLS.has(name) } })
    const children = node.childNodes
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, pre: inPre })
  }
  return tidyExtractedText(parts.join(''))
}

/** Deepest element nesting under `root` (root = 1), walked with its own stack. */
export function domDepth(root: DomNode): number {
  let max = 0
  const stack: [DomNode, number][] = [[root, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (depth > max) max = depth
    const children = node.childNodes
    for (let i = 0; i < children.length; i++) if (children[i]!.nodeType === ELEMENT_NODE) stack.push([children[i]!, depth + 1])
  }
  return max
}
