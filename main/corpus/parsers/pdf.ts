import { IngestFileError, type SourceDocument } from '../types'
import { requireText, titleFromPath } from './read'
import { tidyExtractedText } from './whitespace'

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')

let pdfjs: Promise<PdfJs> | undefined

/**
 * pdf.js runs its parser in a "fake worker" on the main thread under Node. By default it finds that
 * code by importing `./pdf.worker.mjs` relative to itself, which breaks once the app is bundled; handing
 * it the worker module through `globalThis.pdfjsWorker` (which pdf.js checks first) avoids the lookup.
 */
const loadPdfJs = (): Promise<PdfJs> =>
  (pdfjs ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs')
    ;(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker
    return import('pdfjs-dist/legacy/build/pdf.mjs')
  })())

const errorName = (error: unknown): string => (error as { name?: unknown } | null)?.name?.toString() ?? ''
const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Text of every page, pages separated by a blank line; metadata records where each page starts in the text. */
export async function parsePdf(bytes: Uint8Array, relPath: string): Promise<SourceDocument> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1')
  if (!head.includes('%PDF-')) throw new IngestFileError('corrupt', `${relPath}: not a PDF (no %PDF- header in the first 1 KB)`)
  const { getDocument, VerbosityLevel } = await loadPdfJs()
  const task = getDocument({
    // A copy: pdf.js transfers (detaches) the buffer it is given, which may be shared with other Buffers.
    data: new Uint8Array(bytes),
    verbosity: VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
  })
  try {
    let pdf: Awaited<typeof task.promise>
    try {
      pdf = await task.promise
    } catch (error) {
      if (errorName(error) === 'PasswordException') {
        throw new IngestFileError('unreadable', `${relPath}: the PDF is password-protected; save an unprotected copy and add that`)
      }
      throw new IngestFileError('corrupt', `${relPath}: corrupt or unsupported PDF: ${errorMessage(error)}`)
    }
    const pages: string[] = []
    for (let number = 1; number <= pdf.numPages; number++) {
      try {
        const page = await pdf.getPage(number)
        const content = await page.getTextContent()
        const lines = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('')
        pages.push(tidyExtractedText(lines))
        page.cleanup()
      } catch (error) {
        throw new IngestFileError('corrupt', `${relPath}: page ${number} of ${pdf.numPages} cannot be read: ${errorMessage(error)}`)
      }
    }
    const pageOffsets: number[] = []
    let text = ''
    for (const page of pages) {
      if (text !== '' && page !== '') text += '\n\n'
      pageOffsets.push(text.length)
      text += page
    }
    requireText(text, relPath, `none of its ${pdf.numPages} page(s) has a text layer (a scan needs OCR first)`)
    const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined
    const title = typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : titleFromPath(relPath)
    return { externalId: relPath, title, text, source: { path: relPath }, metadata: { pages: pdf.numPages, pageOffsets } }
  } finally {
    await task.destroy()
  }
}
