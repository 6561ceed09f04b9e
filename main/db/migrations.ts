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
  '0002_models': {
    async up(db: Kysely<unknown>) {
      // Registered GGUF files: inspected (never loaded) when added; shared by every workspace.
      await db.schema
        .createTable('models')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('path', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('policy','embedding','adapter')`))
        .addColumn('info_json', 'text', (c) => c.notNull())
        .addColumn('added_at', 'text', (c) => c.notNull())
        .execute()
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
  '0002_corpus_index_graph': {
    async up(db: Kysely<unknown>) {
      // One corpus per workspace. Files are the unit of success, failure and re-ingest.
      await db.schema
        .createTable('source_files')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('path', 'text', (c) => c.notNull().unique())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('ok','failed')`))
        .addColumn('error_reason', 'text')
        .addColumn('error', 'text')
        .addColumn('document_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ingested_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('documents')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('file_id', 'integer', (c) => c.notNull().references('source_files.id').onDelete('cascade'))
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('token_count', 'integer', (c) => c.notNull())
        .addColumn('record', 'integer')
        .addColumn('metadata_json', 'text')
        .addUniqueConstraint('documents_file_external', ['file_id', 'external_id'])
        .execute()
      await db.schema.createIndex('documents_by_title').on('documents').column('title').execute()
      // Chunks are the paragraphs of Harness-G and the retrieval unit of Harness-1.
      await db.schema
        .createTable('chunks')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('ord', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('start_char', 'integer', (c) => c.notNull())
        .addColumn('end_char', 'integer', (c) => c.notNull())
        .addColumn('token_count', 'integer', (c) => c.notNull())
        .addColumn('first_sentence', 'integer', (c) => c.notNull())
        .addColumn('last_sentence', 'integer', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('chunks_by_document').on('chunks').columns(['document_id', 'ord']).execute()
      // A sentence belongs to its document (ord = index in the document) and to the first chunk that holds it.
      await db.schema
        .createTable('sentences')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('chunk_id', 'integer', (c) => c.notNull().references('chunks.id').onDelete('cascade'))
        .addColumn('ord', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('start_char', 'integer', (c) => c.notNull())
        .addColumn('end_char', 'integer', (c) => c.notNull())
        .addUniqueConstraint('sentences_document_ord', ['document_id', 'ord'])
        .execute()
      await db.schema.createIndex('sentences_by_chunk').on('sentences').column('chunk_id').execute()
      await sql`create virtual table chunks_fts using fts5(title, text, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db)
      await db.schema
        .createTable('entities')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('canonical', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('lookup_ok', 'integer', (c) => c.notNull())
        .addUniqueConstraint('entities_canonical_type', ['canonical', 'type'])
        .execute()
      await db.schema
        .createTable('mentions')
        .addColumn('sentence_id', 'integer', (c) => c.notNull().references('sentences.id').onDelete('cascade'))
        .addColumn('entity_id', 'integer', (c) => c.notNull().references('entities.id').onDelete('cascade'))
        .addColumn('start', 'integer', (c) => c.notNull())
        .addColumn('end', 'integer', (c) => c.notNull())
        .addColumn('surface', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('mentions_pk', ['sentence_id', 'entity_id', 'start'])
        .execute()
      await db.schema.createIndex('mentions_by_entity').on('mentions').column('entity_id').execute()
      await db.schema
        .createTable('entity_links')
        .addColumn('source_id', 'integer', (c) => c.notNull().references('entities.id').onDelete('cascade'))
        .addColumn('target_id', 'integer', (c) => c.notNull().references('entities.id').onDelete('cascade'))
        .addColumn('score', 'real', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('entity_links_pk', ['source_id', 'target_id'])
        .execute()
      await db.schema
        .createTable('question_sets')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('questions')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('set_id', 'integer', (c) => c.notNull().references('question_sets.id').onDelete('cascade'))
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('answers_json', 'text', (c) => c.notNull())
        .addColumn('type', 'text')
        .addColumn('supporting_facts_json', 'text', (c) => c.notNull())
        .addColumn('supporting_docs_json', 'text', (c) => c.notNull())
        .addUniqueConstraint('questions_set_external', ['set_id', 'external_id'])
        .execute()
    },
  },
  '0003_dense_vectors': {
    async up(db: Kysely<unknown>) {
      // One embedding per chunk (Float32, little-endian); `model` names the embedder so a retriever
      // configured for another model never compares incompatible vectors.
      await db.schema
        .createTable('chunk_vectors')
        .addColumn('chunk_id', 'integer', (c) => c.primaryKey().references('chunks.id').onDelete('cascade'))
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('dim', 'integer', (c) => c.notNull().check(sql`dim > 0`))
        .addColumn('vector', 'blob', (c) => c.notNull())
        .addCheckConstraint('chunk_vectors_length', sql`length(vector) = dim * 4`)
        .execute()
      await db.schema.createIndex('chunk_vectors_by_model').on('chunk_vectors').column('model').execute()
    },
  },
  '0004_entity_links_by_target': {
    async up(db: Kysely<unknown>) {
      // Neighbourhoods follow links in both directions; without this, links pointing at an entity scan the table.
      await db.schema.createIndex('entity_links_by_target').on('entity_links').column('target_id').execute()
    },
  },
  '0005_runs_and_episodes': {
    async up(db: Kysely<unknown>) {
      // A run is an evaluation (later: a training run) over a question split; everything needed to reproduce it is stored.
      await db.schema
        .createTable('runs')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running','done','failed','cancelled')`))
        .addColumn('config_json', 'text', (c) => c.notNull())
        .addColumn('seed', 'integer', (c) => c.notNull())
        .addColumn('app_version', 'text', (c) => c.notNull())
        .addColumn('corpus_signature', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text')
        .addColumn('summary_json', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute()
      await db.schema
        .createTable('episodes')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.references('questions.id').onDelete('set null'))
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('seed', 'integer', (c) => c.notNull())
        .addColumn('answer', 'text')
        .addColumn('gold_json', 'text', (c) => c.notNull())
        .addColumn('outcome_json', 'text', (c) => c.notNull())
        .addColumn('metrics_json', 'text', (c) => c.notNull())
        .addColumn('turns', 'integer', (c) => c.notNull())
        .addColumn('format_errors', 'integer', (c) => c.notNull())
        .addColumn('ms', 'real', (c) => c.notNull())
        .addUniqueConstraint('episodes_run_question_seed', ['run_id', 'question_id', 'seed'])
        .execute()
      await db.schema.createIndex('episodes_by_run').on('episodes').column('run_id').execute()
      await db.schema
        .createTable('episode_steps')
        .addColumn('episode_id', 'integer', (c) => c.notNull().references('episodes.id').onDelete('cascade'))
        .addColumn('t', 'integer', (c) => c.notNull())
        .addColumn('observation_text', 'text', (c) => c.notNull())
        .addColumn('actions_json', 'text', (c) => c.notNull())
        .addColumn('previews_json', 'text')
        .addColumn('action_json', 'text', (c) => c.notNull())
        .addColumn('decision_json', 'text', (c) => c.notNull())
        .addColumn('info_json', 'text', (c) => c.notNull())
        .addColumn('snapshot_json', 'text', (c) => c.notNull())
        .addColumn('ms', 'real', (c) => c.notNull())
        .addPrimaryKeyConstraint('episode_steps_pk', ['episode_id', 't'])
        .execute()
    },
  },
  '0006_training': {
    async up(db) {
      await db.schema.alterTable('episodes').addColumn('train_step', 'integer').execute()
      await db.schema.alterTable('episodes').addColumn('steps_blob', 'blob').execute()
      // Gold is resolved by external id first: one lookup per name on large corpora.
      await db.schema.createIndex('documents_by_external_id').on('documents').column('external_id').execute()
      // The state after reset, so the Trajectory view can say what the first step changed.
      await db.schema.alterTable('episodes').addColumn('initial_snapshot_json', 'text').execute()
      await db.schema
        .createTable('train_configs')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('config_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('train_steps')
        .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('diagnostics_json', 'text', (c) => c.notNull())
        .addColumn('checkpoint_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('train_steps_pk', ['run_id', 'step'])
        .execute()
    },
  },
}
