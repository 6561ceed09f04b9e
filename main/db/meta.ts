/** The workspace meta table: one text value per key (the embedding model, the chunking, flags). */
import type SQLite from 'better-sqlite3'
import { workspaceQuery } from './query'

const read = workspaceQuery((db, p: { key: string }) => db.selectFrom('meta').select('value').where('key', '=', p.key))
const write = workspaceQuery((db, p: { key: string; value: string }) =>
  db
    .insertInto('meta')
    .values({ key: p.key, value: p.value })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') }))),
)
const remove = workspaceQuery((db, p: { key: string }) => db.deleteFrom('meta').where('key', '=', p.key))

/** The value stored under `key`, or undefined when there is none. */
export const readMeta = (raw: SQLite.Database, key: string): string | undefined => read(raw).value({ key })
export const writeMeta = (raw: SQLite.Database, key: string, value: string): void => void write(raw).run({ key, value })
export const deleteMeta = (raw: SQLite.Database, key: string): void => void remove(raw).run({ key })
