/** The train_configs table: named saved training configs, read and written by name. */
import type SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { workspaceQuery, type RowOf } from '../../../db/query'

const all = workspaceQuery((db) => db.selectFrom('train_configs').selectAll().orderBy(sql`name collate nocase`))
const byName = workspaceQuery((db, p: { name: string }) => db.selectFrom('train_configs').selectAll().where('name', '=', p.name))
const upsert = workspaceQuery((db, p: { name: string; config: string; at: string }) =>
  db
    .insertInto('train_configs')
    .values({ name: p.name, config_json: p.config, created_at: p.at, updated_at: p.at })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ config_json: eb.ref('excluded.config_json'), updated_at: eb.ref('excluded.updated_at') }))),
)
const remove = workspaceQuery((db, p: { name: string }) => db.deleteFrom('train_configs').where('name', '=', p.name))

export type TrainConfigRecord = RowOf<typeof all>

export const trainConfigRecords = (raw: SQLite.Database): TrainConfigRecord[] => all(raw).all()
export const trainConfigRecord = (raw: SQLite.Database, name: string): TrainConfigRecord | undefined => byName(raw).get({ name })
/** Saves or replaces; a replaced config keeps its first creation time. */
export const putTrainConfig = (raw: SQLite.Database, name: string, configJson: string, at: string): void => void upsert(raw).run({ name, config: configJson, at })
/** Whether a config of that name was there. */
export const removeTrainConfig = (raw: SQLite.Database, name: string): boolean => remove(raw).run({ name }).changes > 0
