/** The workspace catalogue in app.db (workspaces), and the creation stamp in a new workspace's own meta. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { AppDatabase, WorkspaceDatabase, WorkspaceTable } from '../db/schema'

export type WorkspaceRow = Selectable<WorkspaceTable>

export class WorkspaceStore {
  constructor(private readonly db: Kysely<AppDatabase>) {}

  workspace(id: string): Promise<WorkspaceRow | undefined> {
    return this.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst()
  }

  workspaces(): Promise<WorkspaceRow[]> {
    return this.db.selectFrom('workspaces').selectAll().execute()
  }

  async insert(row: Insertable<WorkspaceTable>): Promise<void> {
    await this.db.insertInto('workspaces').values(row).execute()
  }

  async update(id: string, patch: Updateable<WorkspaceTable>): Promise<void> {
    await this.db.updateTable('workspaces').set(patch).where('id', '=', id).execute()
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('workspaces').where('id', '=', id).execute()
  }
}

/** Stamps a new workspace database with its creation time. */
export async function stampCreated(db: Kysely<WorkspaceDatabase>, at: string): Promise<void> {
  await db.insertInto('meta').values({ key: 'created_at', value: at }).execute()
}
