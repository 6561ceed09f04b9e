import { join } from 'node:path'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { defaultIngestOptions, runIngest } from '../main/ingest/run'
import { questionSets } from '../main/corpus/catalogue'
import { createEnvironment, environmentContext, registerBuiltinEnvironments, runEpisode } from '../main/harness'
import { createScriptedPolicy } from '../main/policy/scripted'
import { EvidenceResolver } from '../main/experiments/evidence'
import { loadQuestions } from '../main/experiments/questions'
import { goldFactUnits } from '../main/corpus/gold'
import { tempDir } from '../test/helpers/services'
import { sharedPath } from '../test/helpers/shared-data'
const H = sharedPath('data/hotpotqa-train100')
const tmp = tempDir('diag-')
const db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
await runIngest(db.raw, { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile: join(H, 'hotpotqa_train.json'), corpusFile: join(H, 'hotpotqa_train_corpus.json') }, defaultIngestOptions(), { progress: () => undefined, throwIfCancelled: () => undefined })
registerBuiltinEnvironments()
const raw = db.raw
const set = questionSets(raw)[0]!
const env = createEnvironment('graph-menu', environmentContext(raw))
const ev = new EvidenceResolver(raw)
const qs = loadQuestions(raw, set.id, 75, 25)
const policy = createScriptedPolicy('greedy', 'sentence-menu')
const stats: Record<string, number> = {}
const inc = (k: string) => (stats[k] = (stats[k] ?? 0) + 1)
let shown = 0
for (const q of qs) {
  const t = await runEpisode(env, policy, q, 1, { snapshots: false, previews: true })
  const o = t.outcome
  const gold = goldFactUnits(ev.gold(q)).map((u) => u.sentenceId)
  inc(`gold=${gold.length}`)
  const committed = new Set(o.evidence.sentenceIds ?? [])
  const seen = new Set(o.seen.sentenceIds ?? [])
  for (const g of gold) {
    if (g === null) inc('unresolved')
    else if (committed.has(g)) inc('committed')
    else if (seen.has(g)) inc('seen-not-committed')
    else inc('never-seen')
  }
  inc(`turns=${o.turns}`)
  if (shown++ < 5) {
    console.log('\nQ', q.question)
    for (const s of ev.sentences(gold.filter((g): g is number => g !== null))) console.log('  GOLD', s.title, '|', s.text.slice(0, 140))
    for (const s of ev.sentences(o.evidence.sentenceIds ?? [])) console.log('  COMMIT', gold.includes(s.id) ? '*' : ' ', s.title, '|', s.text.slice(0, 140))
  }
}
console.log(stats)
await db.close(); tmp.cleanup()
