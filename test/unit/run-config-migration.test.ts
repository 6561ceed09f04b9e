import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import { splitUsage } from '../../main/experiments/runs/split-usage-store'
import { storedTrainConfig } from '../../main/experiments/training'
import { RunConfig, TrainConfigSchema } from '../../preload/contract'
import { tempDir } from '../helpers/services'

describe('the 0012_run_config_kind migration', () => {
  it('rewrites runs stored in the older shapes as one flat RunConfig, and split usage still finds them', async () => {
    const tmp = tempDir('harness-lab-run-config-')
    try {
      const file = join(tmp.dir, 'workspace.db')
      const before = Object.fromEntries(Object.entries(workspaceMigrations).filter(([name]) => name < '0012_run_config_kind'))
      const old = await openDatabase(file, before)
      const insert = old.raw.prepare("insert into runs (kind, name, status, config_json, seed, app_version, corpus_signature, created_at) values (?, ?, 'done', ?, 1, 'old', 'sig', 'now')")
      const evaluation = { name: 'eval', environment: 'graph-menu', envConfig: { maxTurns: 4 }, policy: { kind: 'scripted', name: 'oracle' }, answerer: { kind: 'lexical', name: 'lexical', lexical: true }, questionSetId: 1, split: 'test', offset: 0, limit: 5, seed: 1, previews: true, rewardWeights: {} }
      const train = TrainConfigSchema.parse({ environment: 'graph-menu', credit: { scheme: 'snc' }, estimator: 'grpo', train: { questionSetId: 1, split: 'train', limit: 8 }, heldOut: { questionSetId: 1, split: 'dev', limit: 4 } })
      insert.run('eval', 'eval', JSON.stringify(evaluation))
      // Training runs kept their config under `config`.
      insert.run('train', 'train', JSON.stringify({ config: train, answerer: { kind: 'lexical' }, answererName: 'lexical' }))
      // Ablation cells marked the policy; the environment server marked the config with `source`.
      insert.run('eval', 'cell', JSON.stringify({ ...evaluation, split: 'dev', policy: { kind: 'scripted', name: 'oracle', ablation: 3, row: 2 } }))
      insert.run('eval', 'env-server graph-menu', JSON.stringify({ environment: 'graph-menu', envConfig: {}, reward: null, credit: 'outcome', answerer: { name: 'lexical', lexical: true }, source: 'env-server', policy: { kind: 'external', name: 'external trainer (env-server)' } }))
      await old.close()

      const migrated = await openDatabase(file, workspaceMigrations)
      try {
        const rows = migrated.raw.prepare('select id, config_json from runs order by id').all() as { id: number; config_json: string }[]
        const configs = rows.map((r) => RunConfig.parse(JSON.parse(r.config_json)))
        expect(configs.map((c) => c.kind)).toEqual(['evaluation', 'training', 'ablation-cell', 'env-server'])
        expect(configs[0]).toEqual({ kind: 'evaluation', ...evaluation })
        expect(configs[1]).toEqual({ kind: 'training', ...train, answerer: { kind: 'lexical' }, answererName: 'lexical' })
        expect(configs[2]).toMatchObject({ kind: 'ablation-cell', split: 'dev', policy: { kind: 'scripted', name: 'oracle' }, ablation: { id: 3, row: 2 } })
        expect(configs[2]!.kind === 'ablation-cell' && 'ablation' in configs[2]!.policy).toBe(false)
        expect(configs[3]).not.toHaveProperty('source')
        // A stored training run still resumes from its config.
        expect(storedTrainConfig(migrated.raw, 2)).toEqual({ config: train, answerer: { kind: 'lexical' } })
        expect(splitUsage(migrated.raw).usedBy(1)).toEqual([
          { runId: 1, name: 'eval', kind: 'eval', split: 'test' },
          { runId: 2, name: 'train', kind: 'train', split: 'dev' },
          { runId: 2, name: 'train', kind: 'train', split: 'train' },
          { runId: 3, name: 'cell', kind: 'eval', split: 'dev' },
        ])
        expect(splitUsage(migrated.raw).usedBy(2)).toEqual([])
      } finally {
        await migrated.close()
      }
    } finally {
      tmp.cleanup()
    }
  })
})
