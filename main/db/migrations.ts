import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import { jsonColumn, JsonObject } from './json-column'

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
  '0003_lora_adapters': {
    async up(db: Kysely<unknown>) {
      // A LoRA adapter registered against a base model it was checked to fit (from the GGUF headers).
      await db.schema
        .createTable('lora_adapters')
        .addColumn('adapter_id', 'text', (c) => c.notNull().references('models.id').onDelete('cascade'))
        .addColumn('base_id', 'text', (c) => c.notNull().references('models.id').onDelete('cascade'))
        .addColumn('scale', 'real', (c) => c.notNull().defaultTo(1))
        .addColumn('rank', 'integer', (c) => c.notNull())
        .addColumn('alpha', 'real')
        .addColumn('targets_json', 'text', (c) => c.notNull())
        .addColumn('added_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('lora_adapters_pk', ['adapter_id', 'base_id'])
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
  '0007_ablations': {
    async up(db) {
      // A named ablation keeps what it ran on and its results, so later code or corpus changes never alter it.
      await db.schema
        .createTable('ablations')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('config_json', 'text', (c) => c.notNull())
        .addColumn('resolved_json', 'text', (c) => c.notNull())
        .addColumn('ran_on_json', 'text')
        .addColumn('results_json', 'text')
        .addColumn('job_id', 'text')
        .addColumn('error', 'text')
        .addColumn('rerun_of', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute()
      // One cell per row and seed: its evaluation run (and training run), so a resumed job skips finished cells.
      await db.schema
        .createTable('ablation_cells')
        .addColumn('ablation_id', 'integer', (c) => c.notNull().references('ablations.id').onDelete('cascade'))
        .addColumn('row', 'integer', (c) => c.notNull())
        .addColumn('seed', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('run_id', 'integer')
        .addColumn('train_run_id', 'integer')
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('ablation_cells_pk', ['ablation_id', 'row', 'seed'])
        .execute()
    },
  },
  '0008_question_splits': {
    async up(db) {
      // Splits (train/dev/test) are stored with the set; the spec says how they were drawn, each question its split.
      await db.schema.alterTable('question_sets').addColumn('split_json', 'text').execute()
      // What an import or a generation reported: bad rows and unresolved gold, each with its line.
      await db.schema.alterTable('question_sets').addColumn('report_json', 'text').execute()
      await db.schema.alterTable('questions').addColumn('split', 'text').execute()
      // Where a question came from: the line of an imported file, or a generated question's provenance.
      await db.schema.alterTable('questions').addColumn('meta_json', 'text').execute()
      await db.schema.createIndex('questions_by_set_split').on('questions').columns(['set_id', 'split']).execute()
    },
  },
  '0009_compact_episodes': {
    async up(db) {
      // An evaluation episode's steps as one compressed blob of per-step deltas (main/experiments/runs/episode-codec.ts);
      // rows written before keep their episode_steps rows and are read as they are.
      await db.schema.alterTable('episodes').addColumn('trajectory_blob', 'blob').execute()
      // Set when the run's steps were pruned: the per-question results stay, the steps are gone.
      await db.schema.alterTable('episodes').addColumn('pruned_at', 'text').execute()
    },
  },
  '0010_one_entity_per_name': {
    async up(db) {
      // Each mention keeps the type it was read with; an entity's type is the vote of its mentions.
      await db.schema.alterTable('mentions').addColumn('type', 'text').execute()
      await sql`update mentions set type = (select e.type from entities e where e.id = mentions.entity_id)`.execute(db)
      // A part-of-speech tag is not an entity type: an untyped proper name is NAME.
      await sql`update entities set type = 'NAME' where type = 'PROPN'`.execute(db)
      await sql`update mentions set type = 'NAME' where type = 'PROPN'`.execute(db)
      // One entity per canonical name: the row whose type has the most mentions wins (a typed one over NAME).
      await sql`create temp table entity_merge as
        with ranked as (
          select e.id, e.canonical, row_number() over (
            partition by e.canonical order by (e.type = 'NAME'), (select count(*) from mentions m where m.entity_id = e.id) desc, e.type, e.id
          ) as rank from entities e where e.canonical in (select canonical from entities group by canonical having count(*) > 1))
        select l.id as loser, w.id as winner from ranked l join ranked w on w.canonical = l.canonical and w.rank = 1 where l.rank > 1`.execute(db)
      await sql`insert or ignore into mentions (sentence_id, entity_id, start, end, surface, type)
        select m.sentence_id, g.winner, m.start, m.end, m.surface, m.type from mentions m join entity_merge g on g.loser = m.entity_id`.execute(db)
      await sql`insert or ignore into entity_links (source_id, target_id, score, method)
        select coalesce(s.winner, l.source_id), coalesce(t.winner, l.target_id), l.score, l.method from entity_links l
        left join entity_merge s on s.loser = l.source_id left join entity_merge t on t.loser = l.target_id
        where s.winner is not null or t.winner is not null`.execute(db)
      await sql`update entities set lookup_ok = 1 where id in (select g.winner from entity_merge g join entities l on l.id = g.loser where l.lookup_ok = 1)`.execute(db)
      // Display name: the best surface of the merged rows (not possessive, not shouted, longest, first).
      await sql`update entities set name = (
          select x.name from entities x where x.id = entities.id or x.id in (select loser from entity_merge where winner = entities.id)
          order by (x.name like '%''s') + (length(x.name) >= 4 and upper(x.name) = x.name and lower(x.name) <> x.name), length(x.name) desc, x.name limit 1)
        where id in (select winner from entity_merge)`.execute(db)
      await sql`delete from mentions where entity_id in (select loser from entity_merge)`.execute(db)
      await sql`delete from entity_links where source_id in (select loser from entity_merge) or target_id in (select loser from entity_merge)`.execute(db)
      await sql`delete from entities where id in (select loser from entity_merge)`.execute(db)
      await sql`delete from entity_links where source_id = target_id`.execute(db)
      // A merged entity voted a value type or NORP is never a LOOKUP target (the rule of main/graph/nlp/lookup-filter.ts).
      await sql`update entities set lookup_ok = 0 where lookup_ok = 1 and type in ('DATE','TIME','CARDINAL','ORDINAL','QUANTITY','PERCENT','MONEY','NORP')`.execute(db)
      await sql`drop table entity_merge`.execute(db)
      await db.schema.createIndex('entities_by_canonical').on('entities').column('canonical').unique().execute()
      // Neighbour links were computed over the old entities: recompute them on the next ingest.
      await sql`insert into meta (key, value) values ('entity_links_dirty', '1') on conflict(key) do update set value = excluded.value`.execute(db)
    },
  },
  '0011_findings': {
    async up(db) {
      // A findings run: the papers' claims measured through one ablation per matched experiment; verdicts stored once it finishes.
      await db.schema
        .createTable('findings')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('config_json', 'text', (c) => c.notNull())
        .addColumn('plan_json', 'text', (c) => c.notNull())
        .addColumn('experiments_json', 'text', (c) => c.notNull())
        .addColumn('ran_on_json', 'text')
        .addColumn('results_json', 'text')
        .addColumn('job_id', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute()
    },
  },
  '0012_run_config_kind': {
    async up(db) {
      // Every run stores one RunConfig (preload/contract/run-config.ts): a kind, the config flat. Rows
      // written before held a training config under `config`, and marked env-server and ablation runs
      // with `source` and the policy's `ablation` / `row`.
      const rows = await db.selectFrom('runs').select(['id', 'kind', 'config_json']).execute()
      for (const row of rows as { id: number; kind: string; config_json: string }[]) {
        const next = kindedRunConfig(row.kind, jsonColumn('runs.config_json', JsonObject).read(row.config_json))
        if (next) await db.updateTable('runs').set({ config_json: JSON.stringify(next) }).where('id', '=', row.id).execute()
      }
    },
  },
  '0013_revisions': {
    async up(db) {
      // Counters that every change to a part of the workspace moves, in the writing transaction: caches
      // kept across episodes (main/harness/sentence-substrate/corpus-cache.ts, the environment server's
      // questions) compare them instead of trusting the data to stay put. 'corpus': documents carry their
      // chunks, sentences and mentions (cascades included), and entities, their links and chunk vectors are
      // written on their own. 'questions': questions and their sets. Triggers, so that no writer can forget
      // them; per row, on the tables written a row per document, entity or question (not sentences or mentions).
      await db.schema
        .createTable('revisions')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('n', 'integer', (c) => c.notNull())
        .modifyEnd(sql`without rowid`)
        .execute()
      for (const [name, tables] of Object.entries(REVISION_TABLES)) {
        await sql`insert into revisions (name, n) values (${name}, 0)`.execute(db)
        for (const table of tables) {
          for (const event of ['insert', 'update', 'delete']) {
            await sql.raw(`create trigger ${table}_${event}_moves_${name}_revision after ${event} on ${table} begin update revisions set n = n + 1 where name = '${name}'; end`).execute(db)
          }
        }
      }
    },
  },
}

/** The tables whose every change moves each revision (0013). */
export const REVISION_TABLES = {
  corpus: ['documents', 'entities', 'entity_links', 'chunk_vectors'],
  questions: ['questions', 'question_sets'],
} as const

const RUN_CONFIG_KINDS = ['evaluation', 'ablation-cell', 'training', 'env-server']

/** A run config of the shape before 0012 as a RunConfig; null when it already is one. */
export function kindedRunConfig(runKind: string, old: Record<string, unknown>): Record<string, unknown> | null {
  if (typeof old.kind === 'string' && RUN_CONFIG_KINDS.includes(old.kind)) return null
  if (runKind === 'train') {
    const { config, answerer, answererName } = old as { config?: Record<string, unknown>; answerer?: unknown; answererName?: unknown }
    return { kind: 'training', ...config, answerer: answerer ?? { kind: 'lexical' }, ...(answererName !== undefined ? { answererName } : {}) }
  }
  if (old.source === 'env-server') {
    const { source: _source, ...rest } = old
    return { kind: 'env-server', ...rest }
  }
  const policy = old.policy as Record<string, unknown> | undefined
  if (policy && typeof policy.ablation === 'number') {
    const { ablation, row, ...plain } = policy
    return { kind: 'ablation-cell', ...old, policy: plain, ablation: { id: ablation, row } }
  }
  return { kind: 'evaluation', ...old }
}
