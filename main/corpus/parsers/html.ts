import { IngestFileError, type SourceDocument } from '../types'
import { domDepth, domText, type DomNode } from './dom-text'
import { htmlNestingDepth } from './html-depth'
import { binaryReason, decodeText, requireText, titleFromPath } from './read'

export interface HtmlOptions {
  /**
   * Pages whose elements nest deeper than this skip Readability, whose cost grows with the cube of the
   * depth (1,000 levels: about 14 s), and are read by the plain extractor (the visible body text).
   */
  readabilityMaxDepth?: number
  /** Pages nested deeper than this are refused ("HTML nesting too deep") before a DOM is built. */
  maxDepth?: number
  /** Skip Readability whatever the depth (the caller saw it run out of time on this page). */
  plainOnly?: string
  /** Hears when Readability starts, so a caller with a time budget knows which step it is in. */
  onStage?: (stage: 'readability' | 'plain') => void
}

export const DEFAULT_HTML_READABILITY_MAX_DEPTH = 200
export const DEFAULT_HTML_MAX_DEPTH = 50_000

/** What the HTML parser says about how it read a page, for the file's record. */
export interface HtmlParse {
  document: SourceDocument
  note?: string
}

/** The few element methods used here, typed locally (see DomNode). */
interface DomElement extends DomNode {
  textContent: string | null
  getAttribute(name: string): string | null
  remove(): void
}
interface DomDocument {
  body: DomElement | null
  documentElement: DomElement | null
  querySelector(selector: string): DomElement | null
  querySelectorAll(selector: string): ArrayLike<DomElement>
}

/** Dropped before Readability runs: never article text, and on short pages Readability keeps whatever is there. */
const BOILERPLATE = 'script, style, noscript, template, nav, [role="navigation"], [hidden], [aria-hidden="true"]'

const DECLARED_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)|<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i

/**
 * HTML is decoded as strict UTF-8 when it is valid UTF-8 (the common case, and a strong signal);
 * otherwise a charset the page declares (meta tag or XML declaration) is honoured, since old pages
 * are often Windows-1252. Without a usable declaration the UTF-8 error stands.
 */
function decodeHtml(bytes: Uint8Array, relPath: string): string {
  try {
    return decodeText(bytes, relPath)
  } catch (error) {
    if (!(error instanceof IngestFileError) || error.reason !== 'encoding' || binaryReason(bytes)) throw error
    const head = Buffer.from(bytes.subarray(0, 2048)).toString('latin1')
    const match = DECLARED_CHARSET.exec(head)
    const label = (match?.[1] ?? match?.[2])?.toLowerCase()
    if (!label || label === 'utf-8' || label === 'utf8') throw error
    try {
      return new TextDecoder(label).decode(bytes)
    } catch {
      throw error
    }
  }
}

let libraries: Promise<[typeof import('linkedom'), typeof import('@mozilla/readability')]> | undefined
// Loaded on first use: most ingests never see HTML and the DOM library is large.
const loadLibraries = () => (libraries ??= Promise.all([import('linkedom'), import('@mozilla/readability')]))

/** linkedom needs a whole document: a bare fragment would become the root element and leave <body> empty. */
const asDocument = (html: string): string => (/<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`)

const textOf = (element: DomElement | null): string => element?.textContent?.replace(/\s+/g, ' ').trim() ?? ''

/** Text after dropping boilerplate, from the whole body: used when Readability finds no article. */
function bodyText(document: DomDocument): string {
  for (const element of Array.from(document.querySelectorAll(BOILERPLATE))) element.remove()
  for (const element of Array.from(document.querySelectorAll('[style]'))) {
    if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(element.getAttribute('style') ?? '')) element.remove()
  }
  const root = document.body ?? document.documentElement
  return root ? domText(root) : ''
}

/**
 * Main text of a page: @mozilla/readability picks the article (dropping navigation, sidebars and
 * hidden content such as inline-XBRL headers) and the DOM walker turns it into lines. When Readability
 * finds nothing, the visible body text is used instead. Title: <title>, else the first <h1>, else the file name.
 *
 * Nesting depth is measured first: past `maxDepth` the page is refused, past `readabilityMaxDepth`
 * (or with `plainOnly`) the plain extractor reads the visible body text and the note says why.
 */
export async function parseHtmlWithNote(bytes: Uint8Array, relPath: string, options: HtmlOptions = {}): Promise<HtmlParse> {
  const readabilityMaxDepth = options.readabilityMaxDepth ?? DEFAULT_HTML_READABILITY_MAX_DEPTH
  const maxDepth = options.maxDepth ?? DEFAULT_HTML_MAX_DEPTH
  const source = decodeHtml(bytes, relPath)
  const scanned = htmlNestingDepth(source, maxDepth)
  if (scanned > maxDepth) {
    throw new IngestFileError(
      'too-large',
      `${relPath}: HTML nesting too deep: elements nest more than ${maxDepth.toLocaleString('en-US')} levels, over the limit for a page (a generated or hostile file?)`,
    )
  }
  const html = asDocument(source)
  const [{ parseHTML }, { Readability }] = await loadLibraries()
  const document = parseHTML(html).document as unknown as DomDocument
  const title = textOf(document.querySelector('title')) || textOf(document.querySelector('h1')) || titleFromPath(relPath)

  for (const element of Array.from(document.querySelectorAll(BOILERPLATE))) element.remove()
  const depth = document.documentElement ? domDepth(document.documentElement) : 0
  let plainReason = options.plainOnly
  if (!plainReason && depth > readabilityMaxDepth) {
    plainReason = `HTML nesting depth ${depth.toLocaleString('en-US')} is over ${readabilityMaxDepth.toLocaleString('en-US')}, past which Readability is too slow`
  }
  let text = ''
  let extractor: 'readability' | 'body' | 'plain' = 'readability'
  if (plainReason) {
    extractor = 'plain'
    options.onStage?.('plain')
    text = bodyText(document)
  } else {
    options.onStage?.('readability')
    try {
      const article = new Readability(document as never, { serializer: (node) => node as unknown as DomNode }).parse()
      if (article?.content) text = domText(article.content)
    } catch {
      // Readability gives up on some malformed trees; the body text below still serves.
    }
    if (text.trim() === '') {
      extractor = 'body'
      text = bodyText(parseHTML(html).document as unknown as DomDocument)
    }
  }
  requireText(text, relPath, 'the page has no visible text')
  const metadata: Record<string, unknown> = plainReason ? { extractor, extractorReason: plainReason, nestingDepth: depth } : { extractor }
  return {
    document: { externalId: relPath, title, text, source: { path: relPath }, metadata },
    ...(plainReason ? { note: `main text by the plain extractor, not Readability: ${plainReason}` } : {}),
  }
}

/** parseHtmlWithNote without the note. */
export async function parseHtml(bytes: Uint8Array, relPath: string, options: HtmlOptions = {}): Promise<SourceDocument> {
  return (await parseHtmlWithNote(bytes, relPath, options)).document
}
