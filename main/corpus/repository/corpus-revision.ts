/** The corpus revision (migration 0013): a counter that every change to what the environments read moves. */
import { workspaceQuery } from '../../db/query'
import { perHandle, statement, type WorkspaceHandle } from './statements'

const revision = workspaceQuery((db) => db.selectFrom('corpus_revision').select('n').where('id', '=', 1))

/**
 * The workspace's corpus revision now, or null for a file from before 0013 opened without migrating
 * (read-only): a caller then cannot tell changes apart and shares nothing across episodes.
 */
export const corpusRevision: (raw: WorkspaceHandle) => () => number | null = perHandle((raw) => {
  const present = statement<[], number>(raw, "select count(*) from sqlite_master where type = 'table' and name = 'corpus_revision'", { pluck: true })().get() === 1
  const read = revision(raw)
  return () => (present ? Number(read.value() ?? 0) : null)
})
