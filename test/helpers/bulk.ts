import Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'

/**
 * Makes a database big enough that checking it takes a while: `tables` tables of `rows` rows,
 * each with a random payload and an index. Used to watch progress and to cancel mid-way.
 */
export function fillDatabase(file: string, tables: number, rows: number, payloadBytes = 1024): void {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  for (let t = 0; t < tables; t++) {
    db.exec(`create table if not exists bulk_${t} (id integer primary key, k text, payload blob); create index if not exists bulk_${t}_k on bulk_${t}(k)`)
    const insert = db.prepare(`insert into bulk_${t} (k, payload) values (?, ?)`)
    db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(randomBytes(8).toString('hex'), randomBytes(payloadBytes))
    })()
  }
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}
