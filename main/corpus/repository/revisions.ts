/** The workspace's change counters (migration 0013): each moves with every change to its part of the workspace. */
import { workspaceQuery } from '../../db/query'
import { perHandle, statement, type WorkspaceHandle } from './statements'

export type RevisionName = 'corpus' | 'questions'

const revision = workspaceQuery((db, p: { name: string }) => db.selectFrom('revisions').select('n').where('name', '=', p.name))

/**
 * Where a part of the workspace stands now: 'corpus' (documents, entities, links, vectors) or 'questions'
 * (questions and their sets). Null for a file from before 0013 opened without migrating (read-only): a
 * caller then cannot tell changes apart and keeps nothing across episodes.
 */
export const workspaceRevisions: (raw: WorkspaceHandle) => (name: RevisionName) => number | null = perHandle((raw) => {
  const present = statement<[], number>(raw, "select count(*) from sqlite_master where type = 'table' and name = 'revisions'", { pluck: true })().get() === 1
  const read = revision(raw)
  return (name) => (present ? Number(read.value({ name }) ?? 0) : null)
})

/** The corpus revision of the handle (what the environments' caches compare). */
export const corpusRevision = (raw: WorkspaceHandle): (() => number | null) => {
  const revisions = workspaceRevisions(raw)
  return () => revisions('corpus')
}
