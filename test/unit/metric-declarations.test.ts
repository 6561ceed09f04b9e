/**
 * Metrics as declarations (main/experiments/metrics/): every key a stored run can hold is declared once,
 * scoreEpisode writes exactly what the declarations compute, and a metric's words live in its own file
 * only, so adding one is one file (plus its line in registry.ts).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import type { OpenedDatabase } from '../../main/db/open'
import { EXTRA_METRICS } from '../../main/experiments/ablation/episode-extras'
import { EvidenceResolver } from '../../main/experiments/metrics/evidence'
import { metricInfo, metrics, type MetricDeclaration } from '../../main/experiments/metrics'
import { loadQuestions } from '../../main/experiments/questions'
import { rewarderFor } from '../../main/experiments/metrics/rewards'
import { scoreEpisode } from '../../main/experiments/metrics/score'
import { useDemoWorkspace } from '../helpers/corpus'
import { rewardTermNames } from '../../main/rl/reward-schemes'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const METRICS_DIR = join(ROOT, 'main/experiments/metrics')
/** Files of the metrics room that declare no metric: the registry and its types, and the scoring around them. */
const MACHINERY = new Set(['declaration.ts', 'registry.ts', 'catalog.ts', 'index.ts', 'scored-episode.ts', 'score.ts', 'evidence.ts', 'rewards.ts'])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|vue)$/.test(e.name) ? [join(dir, e.name)] : []))
}

describe('metric declarations', () => {
  const demo = useDemoWorkspace(5, 0.3)
  let db: OpenedDatabase<unknown>
  beforeAll(() => {
    db = demo.workspace.db
  })

  it('declares every key a stored run can produce, once, with its level and words', () => {
    const [q] = loadQuestions(db.raw, { questionSetId: 1, limit: 1 })
    const ids = q!.supportingFacts.map(
      (f) => db.raw.prepare('select s.id from sentences s join documents d on d.id = s.document_id where d.title = ? and s.ord = ?').pluck().get(f.title, f.sentence) as number,
    )
    // A free-query outcome (queried sentences named), so every computed metric applies.
    const outcome = { evidence: { sentenceIds: ids }, seen: { sentenceIds: ids }, queried: { sentenceIds: ids.slice(0, 1) }, turns: 3, formatErrors: 0, endReason: 'answer', toolsUsed: [] }
    const scored = scoreEpisode(q!, outcome, q!.answers[0]!, new EvidenceResolver(db.raw))
    // scoreEpisode writes exactly the declarations that compute from the scored episode (this question has every gold level).
    expect(Object.keys(scored).sort()).toEqual(metrics.declarations().filter((d) => 'compute' in d.impl).map((d) => d.name).sort())

    const stored = new Set([
      ...Object.keys(scored),
      // The Harness-1 reward scheme, on a real episode of the same question.
      ...Object.keys(rewarderFor('harness1', db.raw)!(q!, outcome)),
      // A training rollout: the reward, each term's contribution (experiments/training/store.ts), evidence, the answerer's score.
      'train.reward',
      ...rewardTermNames().map((t) => `train.reward.${t}`),
      'evidence.count',
      'answerer.loglik',
      // Ablation cells read these from the stored episode.
      ...EXTRA_METRICS,
    ])
    // Every key main/ assigns into a metrics record by a literal name is among them.
    for (const file of sourceFiles(join(ROOT, 'main'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:metrics|m)\[['`]([\w.]+)['`]\]\s*=[^=]/g)) stored.add(m[1]!)
    }
    const names = metrics.names()
    for (const key of stored) expect(names.filter((n) => n === key), `stored key ${key}`).toHaveLength(1)
    for (const d of metrics.declarations()) {
      expect(d.label.trim(), d.name).not.toBe('')
      expect(d.description.trim(), d.name).not.toBe('')
      expect(['sentence', 'paragraph', 'answer', 'episode'], d.name).toContain(d.capabilities.level)
      expect(metricInfo(d.name)).toMatchObject({ name: d.name, label: d.label, level: d.capabilities.level, direction: d.capabilities.direction })
    }
  })

  it('makes a metric one file: every declaring file is registered, and its label is stated nowhere else', async () => {
    const declared = new Set<MetricDeclaration>(metrics.declarations())
    const files = readdirSync(METRICS_DIR).filter((f) => f.endsWith('.ts') && !MACHINERY.has(f))
    expect(files.length).toBeGreaterThan(20)
    const fileOf = new Map<string, string>()
    for (const f of files) {
      const mod = (await import(join(METRICS_DIR, f))) as Record<string, unknown>
      const exported = Object.values(mod).flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v): v is MetricDeclaration => typeof v === 'object' && v !== null && 'capabilities' in v && 'impl' in v)
      expect(exported.length, `${f} declares no metric`).toBeGreaterThan(0)
      for (const d of exported) {
        expect(declared.has(d), `${f}: ${d.name} is not in registry.ts`).toBe(true)
        fileOf.set(d.name, f)
      }
    }
    expect([...fileOf.keys()].sort()).toEqual(metrics.names().sort())

    // No other backend or renderer file states a declared label (the renderer reads them from harness.catalog).
    const sources = [...sourceFiles(join(ROOT, 'main')), ...sourceFiles(join(ROOT, 'renderer/src'))].filter((f) => !f.startsWith(METRICS_DIR))
    const texts = sources.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8')] as const)
    for (const d of metrics.declarations()) {
      const quoted = [`'${d.label}'`, `"${d.label}"`, `>${d.label}<`]
      const restating = texts.filter(([, text]) => quoted.some((q) => text.includes(q))).map(([path]) => path)
      expect(restating, `label "${d.label}" of ${d.name}`).toEqual([])
    }
  })
})
