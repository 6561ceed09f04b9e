import { statSync } from 'node:fs'

/** Bytes a SQLite database takes on disk: the file plus its write-ahead log. */
export function databaseBytes(file: string): number {
  let total = 0
  for (const f of [file, `${file}-wal`]) {
    try {
      total += statSync(f).size
    } catch {
      // no WAL file yet is normal
    }
  }
  return total
}
