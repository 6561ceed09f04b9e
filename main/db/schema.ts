import type { Generated } from 'kysely'

/** Catalogue database (app.db): the list of workspaces and every job. */
export interface AppDatabase {
  workspaces: WorkspaceTable
  jobs: JobTable
}

export interface WorkspaceTable {
  id: string
  name: string
  /** Folder of this workspace's own database, relative to the data dir. */
  dir: string
  created_at: string
  updated_at: string
  opened_at: string | null
}

export interface JobTable {
  id: string
  kind: string
  workspace_id: string | null
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  progress: number
  stage: string
  message: string
  error: string | null
  params_json: string
  result_json: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
  owner_pid: number | null
}

/** Per-workspace database (workspace.db): corpora, questions, runs and results grow here. */
export interface WorkspaceDatabase {
  meta: MetaTable
}

export interface MetaTable {
  key: string
  value: string
}

export type AutoId = Generated<number>
