/**
 * SQL lives in repositories. A line of main/ that writes or runs SQL (a better-sqlite3 `prepare`,
 * `exec` of a literal or `pragma`; a Kysely `selectFrom`/`insertInto`/`updateTable`/`deleteFrom`/
 * `replaceInto`, a `sql` template, a `workspaceQuery`/`appQuery` definition; a string literal that
 * opens with select/insert/update/delete, as handed to a statement helper) may only stand in a
 * repository file:
 *   - anything under main/db/, or under a folder named `repository/` or `store/`;
 *   - a file named `store.ts`, `*-store.ts`, `queries.ts`, `*-queries.ts`, `statements.ts` or `*-statements.ts`.
 * Feature code calls the repository of its folder instead. EXEMPT names the few files that use SQLite
 * for something other than data, each with its reason.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const SQL_CALL =
  /\.(prepare\s*[(<]|pragma\s*\(|exec\s*\(\s*['"`]|selectFrom\s*\(|insertInto\s*\(|updateTable\s*\(|deleteFrom\s*\(|replaceInto\s*\()|\bsql\s*(<[^>]*>)?`|\b(workspaceQuery|appQuery)\s*\(/

/** A string literal holding the start of a SQL statement (the house writes SQL in lower case; SELECT is an action name). */
const SQL_TEXT = /['"`]\s*(select\s+(distinct\s+)?[\w*]|insert\s+(or\s+\w+\s+)?into\s|update\s+\w+\s+set\s|delete\s+from\s|with\s+(recursive\s+)?\w+\s*(\([^)]*\)\s*)?as\s*\()/
const isSql = (code: string): boolean => SQL_CALL.test(code) || SQL_TEXT.test(code)

/** Whether a repo path (posix, from the root) is a repository file. */
export function isRepositoryFile(path: string): boolean {
  if (path.startsWith('main/db/')) return true
  if (/(^|\/)(repository|store)\//.test(path)) return true
  return /^(.+-)?(store|queries|statements)\.ts$/.test(basename(path))
}

const EXEMPT: Record<string, string> = {
  'main/jobs/owner-lock.ts': 'the owner lock is an exclusive transaction on a lock file, not a data query',
}

/** `file:line: text` for each SQL line outside a repository file. */
export function sqlOutsideRepositories(files: { path: string; text: string }[]): string[] {
  const found: string[] = []
  for (const { path, text } of files) {
    if (isRepositoryFile(path) || path in EXEMPT) continue
    text.split('\n').forEach((line, i) => {
      const code = line.replace(/^\s*(\/\/|\*|\/\*).*$/, '')
      if (isSql(code)) found.push(`${path}:${i + 1}: ${line.trim()}`)
    })
  }
  return found
}

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) return walk(rel)
    return /\.(ts|mts|mjs)$/.test(e.name) ? [rel] : []
  })
}

describe('SQL rules', () => {
  it('recognises repository files by folder and name', () => {
    for (const p of ['main/db/query.ts', 'main/corpus/repository/chunks.ts', 'main/graph/store/stats.ts', 'main/jobs/store.ts', 'main/experiments/training/queries.ts', 'main/retrieval/statements.ts', 'main/models/embedding-store.ts']) {
      expect(isRepositoryFile(p), p).toBe(true)
    }
    for (const p of ['main/jobs/manager.ts', 'main/retrieval/bm25.ts', 'main/storey.ts', 'main/restore.ts']) expect(isRepositoryFile(p), p).toBe(false)
  })

  it('finds SQL calls and leaves regular expressions and comments alone', () => {
    const text = [
      "const row = raw.prepare('select 1').get()",
      '/^(\\d+)$/.exec(name)',
      "db.exec('VACUUM')",
      "await this.db.selectFrom('jobs').selectAll().execute()",
      '// raw.prepare in a comment',
      'const n = sql<number>`count(*)`',
      "usedBy: statement<[number], Row>(raw, 'select id from runs where id = ?'),",
      "const label = 'Select a file'",
    ].join('\n')
    expect(sqlOutsideRepositories([{ path: 'main/feature/x.ts', text }])).toEqual([
      "main/feature/x.ts:1: const row = raw.prepare('select 1').get()",
      "main/feature/x.ts:3: db.exec('VACUUM')",
      "main/feature/x.ts:4: await this.db.selectFrom('jobs').selectAll().execute()",
      'main/feature/x.ts:6: const n = sql<number>`count(*)`',
      "main/feature/x.ts:7: usedBy: statement<[number], Row>(raw, 'select id from runs where id = ?'),",
    ])
    expect(sqlOutsideRepositories([{ path: 'main/feature/store.ts', text }])).toEqual([])
  })

  it('main/ writes SQL only in repository files', () => {
    const files = walk('main').map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
    const found = sqlOutsideRepositories(files)
    expect(found, `SQL outside a repository file (move it into the store/queries/statements module of its folder):\n${found.join('\n')}`).toEqual([])
  })

  it('lists only files that exist and still hold SQL', () => {
    for (const path of Object.keys(EXEMPT)) {
      const text = readFileSync(join(ROOT, path), 'utf8')
      expect(text.split('\n').some(isSql), `${path} holds no SQL: remove it from the list`).toBe(true)
    }
  })
})
