import type { Generated } from 'kysely'

/** Catalogue database (app.db): the list of workspaces and every job. */
export interface AppDatabase {
  workspaces: WorkspaceTable
  jobs: JobTable
  models: ModelTable
  lora_adapters: LoraAdapterTable
}

export interface LoraAdapterTable {
  adapter_id: string
  base_id: string
  scale: number
  rank: number
  alpha: number | null
  targets_json: string
  added_at: string
}

export interface ModelTable {
  id: string
  path: string
  name: string
  sha256: string
  role: 'policy' | 'embedding' | 'adapter'
  info_json: string
  added_at: string
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
  source_files: SourceFileTable
  documents: DocumentTable
  chunks: ChunkTable
  sentences: SentenceTable
  entities: EntityTable
  mentions: MentionTable
  entity_links: EntityLinkTable
  question_sets: QuestionSetTable
  questions: QuestionTable
  runs: RunTable
  episodes: EpisodeTable
  episode_steps: EpisodeStepTable
  train_steps: TrainStepTable
  train_configs: TrainConfigTable
  chunk_vectors: ChunkVectorTable
  ablations: AblationTable
  ablation_cells: AblationCellTable
  findings: FindingsTable
  revisions: RevisionTable
}

/** Change counters moved by triggers (migration 0013): 'corpus' (documents, entities, links, vectors) and 'questions' (questions, sets). */
export interface RevisionTable {
  name: string
  n: number
}

export interface SourceFileTable {
  id: Generated<number>
  path: string
  format: string
  size_bytes: number
  sha256: string
  status: 'ok' | 'failed'
  error_reason: string | null
  error: string | null
  document_count: number
  ingested_at: string
}

export interface DocumentTable {
  id: Generated<number>
  file_id: number
  external_id: string
  title: string
  text: string
  token_count: number
  record: number | null
  metadata_json: string | null
}

export interface ChunkTable {
  id: Generated<number>
  document_id: number
  ord: number
  text: string
  start_char: number
  end_char: number
  token_count: number
  first_sentence: number
  last_sentence: number
}

export interface SentenceTable {
  id: Generated<number>
  document_id: number
  chunk_id: number
  ord: number
  text: string
  start_char: number
  end_char: number
}

export interface EntityTable {
  id: Generated<number>
  canonical: string
  type: string
  name: string
  /** 0 for types that are never LOOKUP targets (DATE, CARDINAL, NORP, ...). */
  lookup_ok: number
}

export interface MentionTable {
  sentence_id: number
  entity_id: number
  start: number
  end: number
  surface: string
  /** The type this mention was read with (null for rows written before 0010_one_entity_per_name). */
  type: string | null
}

export interface EntityLinkTable {
  source_id: number
  target_id: number
  score: number
  method: string
}

export interface QuestionSetTable {
  id: Generated<number>
  name: string
  source: string
  created_at: string
  /** How the set's splits were drawn (QuestionSplitSpec JSON), null when it has none. */
  split_json: string | null
  /** Import or generation report (bad rows, unresolved gold with their lines), null when none. */
  report_json: string | null
}

export interface QuestionTable {
  id: Generated<number>
  set_id: number
  external_id: string
  question: string
  answers_json: string
  type: string | null
  supporting_facts_json: string
  supporting_docs_json: string
  /** 'train' | 'dev' | 'test' | a field's value; null: in no split. */
  split: string | null
  /** Provenance: the imported file's line, or how a generated question was built. */
  meta_json: string | null
}

export interface ChunkVectorTable {
  chunk_id: number
  /** Name of the embedding model that produced the vector. */
  model: string
  dim: number
  /** Float32Array bytes (little-endian), length = dim * 4. */
  vector: Buffer
}

export interface MetaTable {
  key: string
  value: string
}


export interface RunTable {
  id: Generated<number>
  kind: string
  name: string
  status: 'running' | 'done' | 'failed' | 'cancelled'
  config_json: string
  seed: number
  app_version: string
  corpus_signature: string
  job_id: string | null
  summary_json: string | null
  error: string | null
  created_at: string
  finished_at: string | null
}

export interface EpisodeTable {
  id: Generated<number>
  run_id: number
  question_id: number | null
  question: string
  seed: number
  answer: string | null
  gold_json: string
  outcome_json: string
  metrics_json: string
  turns: number
  format_errors: number
  ms: number
  /** Training rollouts: the step of the run that produced them (null for evaluation episodes). */
  train_step: number | null
  /** Training rollouts: their steps, compact (actions, log-probs, credit; deflated JSON); the full steps are replayed on demand. */
  steps_blob: Uint8Array | null
  /** The environment's state after reset (evaluation episodes), so the first step's changes can be described. */
  initial_snapshot_json: string | null  /** Evaluation episodes written compactly: their steps and initial snapshot (main/experiments/runs/episode-codec.ts); null for row-format episodes. */
  trajectory_blob: Uint8Array | null
  /** When the run's steps were pruned (per-question results kept), or null. */
  pruned_at: string | null
}

/** Named training configs saved from the Rewards page. */
export interface TrainConfigTable {
  name: string
  config_json: string
  created_at: string
  updated_at: string
}

/** One completed training step: its diagnostics and the checkpoint to resume from, written in the step's transaction. */
export interface TrainStepTable {
  run_id: number
  step: number
  diagnostics_json: string
  checkpoint_json: string
  created_at: string
}

export interface EpisodeStepTable {
  episode_id: number
  t: number
  observation_text: string
  actions_json: string
  previews_json: string | null
  action_json: string
  decision_json: string
  info_json: string
  snapshot_json: string
  ms: number
}

/** A saved ablation: its config, resolved rows, what it ran on and its results (written once, when it finishes). */
export interface AblationTable {
  id: Generated<number>
  name: string
  /** saved, running, done, failed, cancelled */
  status: string
  config_json: string
  resolved_json: string
  ran_on_json: string | null
  results_json: string | null
  job_id: string | null
  error: string | null
  rerun_of: number | null
  created_at: string
  finished_at: string | null
}

/** One cell of an ablation (row x seed): its progress and the runs it produced. */
export interface AblationCellTable {
  ablation_id: number
  row: number
  seed: number
  /** pending, running, done, failed */
  status: string
  done: number
  total: number
  run_id: number | null
  train_run_id: number | null
  error: string | null
}

/** A findings run: its config, the resolved plan, its experiments (ablation ids and time spent) and, once finished, its verdicts. */
export interface FindingsTable {
  id: Generated<number>
  name: string
  /** saved, running, done, failed, cancelled */
  status: string
  config_json: string
  plan_json: string
  experiments_json: string
  ran_on_json: string | null
  results_json: string | null
  job_id: string | null
  error: string | null
  created_at: string
  finished_at: string | null
}
