import { IngestFileError, type SourceDocument } from '../types'
import { domText, type DomNode } from './dom-text'
import { binaryReason, decodeText, requireText, titleFromPath } from './read'

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
 */
export async function parseHtml(bytes: Uint8Array, relPath: string): Promise<SourceDocument> {
  const html = asDocument(decodeHtml(bytes, relPath))
  const [{ parseHTML }, { Readability }] = await loadLibraries()
  const document = parseHTML(html).document as unknown as DomDocument
  const title = textOf(document.querySelector('title')) || textOf(document.querySelector('h1')) || titleFromPath(relPath)

  for (const element of Array.from(document.querySelectorAll(BOILERPLATE))) element.remove()
  let text = ''
  let extractor: 'readability' | 'body' = 'readability'
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
  requireText(text, relPath, 'the page has no visible text')
  return { externalId: relPath, title, text, source: { path: relPath }, metadata: { extractor } }
}
