import type { SourceDocument } from '../types'
import { requireText, titleFromPath } from './read'
import { tidyPlainText } from './whitespace'

/** Plain text is taken as the author wrote it; only line endings and trailing spaces are tidied. */
export function parsePlainText(source: string, relPath: string): SourceDocument {
  const text = tidyPlainText(source)
  requireText(text, relPath, 'the file holds only whitespace')
  return { externalId: relPath, title: titleFromPath(relPath), text, source: { path: relPath } }
}
