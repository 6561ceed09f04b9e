/** runs.list carries each run's stored record as the typed RunConfig, by kind; a row no kind parses lists with none. */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { listRuns } from '../../main/experiments/runs/read-model'
import { RunStore } from '../../main/experiments/runs/store'
import { TrainingRunConfig } from '../../preload/contract'
import { evaluationConfig } from '../helpers/episodes'
import { tempDir } from '../helpers/services'

describe('RunSummary.config', () => {
  const tmp = tempDir()
  let db: OpenedDatabase<unknown>
  beforeAll(async () => {
    db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
  })
  afterAll(async () => {
    await db.close()
    tmp.cleanup()
  })

  it('is the run record by kind, and null for a row that does not parse', () => {
    const store = new RunStore(db.raw)
    const common = { seed: 1, appVersion: 'test', corpusSignature: 'sig', jobId: null }
    const evalId = store.createRun({ kind: 'eval', name: 'eval', config: evaluationConfig('graph-menu', { maxLookup: 4 }), ...common })
    const training = TrainingRunConfig.parse({ kind: 'training', environment: 'graph-menu', credit: { scheme: 'snc' }, estimator: 'grpo', train: { questionSetId: 1, limit: 2 }, heldOut: { questionSetId: 1, offset: 2, limit: 2 }, answerer: { kind: 'lexical' } })
    const trainId = store.createRun({ kind: 'train', name: 'train', config: training, ...common })
    const badId = store.createRun({ kind: 'eval', name: 'bad', config: evaluationConfig('graph-menu'), ...common })
    db.raw.prepare('update runs set config_json = ? where id = ?').run(JSON.stringify({ environment: 'graph-menu' }), badId)

    const byId = new Map(listRuns(db.raw).map((r) => [r.id, r.config]))
    const evaluation = byId.get(evalId)
    expect(evaluation?.kind).toBe('evaluation')
    if (evaluation?.kind === 'evaluation') expect([evaluation.policy.name, evaluation.answerer.name, evaluation.envConfig]).toEqual(['test', 'lexical', { maxLookup: 4 }])
    const trained = byId.get(trainId)
    expect(trained?.kind).toBe('training')
    if (trained?.kind === 'training') expect([trained.train.limit, trained.heldOut.offset, trained.steps]).toEqual([2, 2, training.steps])
    expect(byId.get(badId)).toBeNull()
  })
})
