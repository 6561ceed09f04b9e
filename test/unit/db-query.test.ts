import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import { jsonValues, workspaceQuery } from '../../main/db/query'
import type { WorkspaceDatabase } from '../../main/db/schema'
import { tempDir } from '../helpers/services'

describe('typed queries built with Kysely and run synchronously by better-sqlite3', () => {
  const tmp = tempDir('harness-lab-query-')
  afterAll(() => tmp.cleanup())

  const insert = workspaceQuery((db, p: { key: string; value: string }) => db.insertInto('meta').values({ key: p.key, value: p.value }))
  const byPrefix = workspaceQuery((db, p: { prefix: string }) => db.selectFrom('meta').select(['key', 'value']).where('key', 'like', p.prefix).where('value', '!=', 'hidden').orderBy('key'))
  const count = workspaceQuery((db) => db.selectFrom('meta').select((eb) => eb.fn.countAll<number>().as('n')))
  const inList = workspaceQuery((db, p: { keys: string }) => db.selectFrom('meta').select('value').where('key', 'in', jsonValues<string>(p.keys)).orderBy('value'))

  it('binds named parameters (each use of a name, and constants, in order) on a real SQLite file', async () => {
    const opened = await openDatabase<WorkspaceDatabase>(join(tmp.dir, 'workspace.db'), workspaceMigrations)
    try {
      const raw = opened.raw
      raw.prepare('delete from meta').run()
      for (const [key, value] of [['a.1', 'one'], ['a.2', 'two'], ['a.3', 'hidden'], ['b.1', 'bee']]) expect(insert(raw).run({ key: key!, value: value! }).changes).toBe(1)
      expect(byPrefix(raw).all({ prefix: 'a.%' })).toEqual([{ key: 'a.1', value: 'one' }, { key: 'a.2', value: 'two' }])
      expect(byPrefix(raw).get({ prefix: 'b.%' })).toEqual({ key: 'b.1', value: 'bee' })
      expect(byPrefix(raw).values({ prefix: 'a.%' })).toEqual(['a.1', 'a.2'])
      expect(byPrefix(raw).value({ prefix: 'z.%' })).toBeUndefined()
      expect(count(raw).value()).toBe(4)
      expect(inList(raw).values({ keys: JSON.stringify(['b.1', 'a.2', 'missing']) })).toEqual(['bee', 'two'])
      // One bound query per handle: the same object each time.
      expect(byPrefix(raw)).toBe(byPrefix(raw))
    } finally {
      await opened.close()
    }
  })
})
