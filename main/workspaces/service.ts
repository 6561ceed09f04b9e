import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Kysely, Selectable } from 'kysely'
import { ApiError, type Workspace } from '../../preload/contract'
import { workspaceDbFile } from '../config/paths'
import { workspaceMigrations } from '../db/migrations'
import { openDatabase, type OpenedDatabase } from '../db/open'
import type { AppDatabase, WorkspaceDatabase, WorkspaceTable } from '../db/schema'
import { databaseBytes } from '../db/file-size'
import { stampCreated, WorkspaceStore } from './store'

const now = (): string => new Date().toISOString()


/** Workspaces: a catalogue row in app.db plus a folder with the workspace's own database. */
export class WorkspaceService {
  /** Open connections used by the API (reads); jobs open their own in their worker thread. */
  private readonly pool = new Map<string, Promise<OpenedDatabase<WorkspaceDatabase>>>()
  private readonly store: WorkspaceStore

  constructor(
    db: Kysely<AppDatabase>,
    private readonly dataDir: string,
    /** Returns true when a job is queued or running for the workspace. */
    private readonly hasActiveJobs: (workspaceId: string) => Promise<boolean>,
    /** Why the data folder cannot be written, or null: workspaces then open read-only, and changes are refused. */
    private readonly readOnly: string | null = null,
  ) {
    this.store = new WorkspaceStore(db)
  }

  private toDto(row: Selectable<WorkspaceTable>): Workspace {
    return {
      id: row.id,
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      openedAt: row.opened_at,
      sizeBytes: databaseBytes(this.dbFileOf(row)),
    }
  }

  private dbFileOf(row: Pick<WorkspaceTable, 'dir'>): string {
    return workspaceDbFile(this.dataDir, row.dir)
  }

  private async row(id: string): Promise<Selectable<WorkspaceTable>> {
    const row = await this.store.workspace(id)
    if (!row) throw new ApiError('NOT_FOUND', `No workspace with id ${id}`)
    return row
  }

  async list(): Promise<Workspace[]> {
    const rows = await this.store.workspaces()
    rows.sort((a, b) => (b.opened_at ?? b.created_at).localeCompare(a.opened_at ?? a.created_at))
    return rows.map((r) => this.toDto(r))
  }

  /** Refuses a change in a data folder that cannot be written, naming the folder. */
  private writable(what: string): void {
    if (this.readOnly !== null) throw new ApiError('CONFLICT', `The data folder ${this.dataDir} is not writable (${this.readOnly}): ${what} writes to it; commands that only read work`)
  }

  async create(name: string): Promise<Workspace> {
    this.writable('creating a workspace')
    const id = randomUUID()
    const dir = `workspaces/${id}`
    const t = now()
    // Create and migrate the workspace database first: a catalogue row never points at a missing database.
    const opened = await openDatabase<WorkspaceDatabase>(workspaceDbFile(this.dataDir, dir), workspaceMigrations)
    try {
      await stampCreated(opened.db, t)
    } finally {
      await opened.close()
    }
    try {
      await this.store.insert({ id, name, dir, created_at: t, updated_at: t, opened_at: null })
    } catch (err) {
      rmSync(join(this.dataDir, dir), { recursive: true, force: true })
      throw err
    }
    return this.toDto(await this.row(id))
  }

  /** Opening records the time so the list shows the most recent first. */
  async open(id: string): Promise<Workspace> {
    await this.row(id)
    // A read-only folder keeps its "last opened": reading it is not a change.
    if (this.readOnly === null) await this.store.update(id, { opened_at: now() })
    return this.toDto(await this.row(id))
  }

  async rename(id: string, name: string): Promise<Workspace> {
    this.writable('renaming a workspace')
    await this.row(id)
    await this.store.update(id, { name, updated_at: now() })
    return this.toDto(await this.row(id))
  }

  async delete(id: string, confirmName: string): Promise<void> {
    this.writable('deleting a workspace')
    const row = await this.row(id)
    if (confirmName.trim() !== row.name) {
      throw new ApiError('VALIDATION', `To delete, confirm with the workspace's exact name ("${row.name}")`, ['confirmName: does not match'])
    }
    if (await this.hasActiveJobs(id)) {
      throw new ApiError('CONFLICT', 'This workspace has a queued or running job: cancel it first')
    }
    // The row goes first: from here on, opening the workspace or queueing a job for it is NOT_FOUND.
    await this.store.delete(id)
    await this.release(id)
    rmSync(join(this.dataDir, row.dir), { recursive: true, force: true })
  }

  /** Path of a workspace's database file, for jobs that open it in their own thread. */
  async databaseFile(id: string): Promise<string> {
    return this.dbFileOf(await this.row(id))
  }

  /** A shared connection to the workspace database, opened (and migrated) on first use. */
  async handle(id: string): Promise<OpenedDatabase<WorkspaceDatabase>> {
    let opened = this.pool.get(id)
    if (!opened) {
      opened = this.databaseFile(id).then((file) => openDatabase<WorkspaceDatabase>(file, workspaceMigrations, { readonly: this.readOnly !== null }))
      this.pool.set(id, opened)
      opened.catch(() => this.pool.delete(id))
    }
    return opened
  }

  private async release(id: string): Promise<void> {
    const opened = this.pool.get(id)
    this.pool.delete(id)
    if (opened) await (await opened.catch(() => null))?.close()
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.pool.keys()].map((id) => this.release(id)))
  }
}
