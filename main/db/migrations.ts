import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'

/** In-code provider: migrations ship inside the bundle (the file provider cannot import .ts or bundled code). */
export class InCodeMigrations implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations
  }
}

// Names sort lexically: keep the numeric prefix. Never edit a migration that has shipped; add a new one.
export const appMigrations: Record<string, Migration> = {
  '0001_workspaces_and_jobs': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('dir', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'text')
        .execute()
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('queued','running','done','failed','cancelled')`),
        )
        .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
        .addColumn('stage', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('error', 'text')
        .addColumn('params_json', 'text', (c) => c.notNull())
        .addColumn('result_json', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        // Process that runs the job: several processes (app, CLI) may share one data folder.
        .addColumn('owner_pid', 'integer')
        .execute()
      await db.schema.createIndex('jobs_by_workspace').on('jobs').columns(['workspace_id', 'created_at']).execute()
      await db.schema.createIndex('jobs_by_status').on('jobs').column('status').execute()
    },
  },
}

export const workspaceMigrations: Record<string, Migration> = {
  '0001_meta': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute()
    },
  },
}
