import { startBackend } from './helpers/services'
const b = await startBackend()
const w = await b.call('workspace.create', { name: 'x' })
for (const source of [{ kind: 'demo', seed: 1, size: 1 }, { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile: '/work/shared/data/hotpotqa-train100/hotpotqa_train.json', corpusFile: '/work/shared/data/hotpotqa-train100/hotpotqa_train_corpus.json' }, { kind: 'demo', seed: 1, size: 1 }] as const) {
  const j = await b.call('job.start', { kind: 'corpus.ingest', workspaceId: w.id, params: { source } })
  const done = await b.services.jobs.waitFor(j.id)
  console.log(done.status, done.error, done.message, JSON.stringify((done.result as any)?.seconds))
}
console.log(await b.call('corpus.stats', { workspaceId: w.id }))
console.log(JSON.stringify(await b.call('corpus.search', { workspaceId: w.id, query: 'founder born city', k: 3 }), null, 1).slice(0, 1500))
await b.close()
