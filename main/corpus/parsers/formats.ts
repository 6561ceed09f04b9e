import { extname } from 'node:path'

export type SourceFormat = 'txt' | 'md' | 'html' | 'pdf' | 'docx' | 'json' | 'jsonl'

const FORMAT_BY_EXTENSION: Readonly<Record<string, SourceFormat>> = {
  '.txt': 'txt',
  '.text': 'txt',
  '.md': 'md',
  '.markdown': 'md',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
}

/** Lower-case extensions, dot included, that `parseFile` accepts (for folder scans and file dialogs). */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.freeze(Object.keys(FORMAT_BY_EXTENSION))

/** The format a file is parsed as, from its extension alone (case-insensitive); null when unsupported. */
export const detectFormat = (path: string): SourceFormat | null => FORMAT_BY_EXTENSION[extname(path).toLowerCase()] ?? null
