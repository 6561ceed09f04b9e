/**
 * A finished findings run as files: a Markdown report (verdict lines, the paper's figure beside the
 * measured effect, arms, configs, departures, provenance) with its charts as SVG files, a CSV of every
 * cell (experiment, row, question, seed, metric, value) and the configs as JSON to repeat the run.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { ApiError, type ClaimResult, type FindingsDetail } from '../../../preload/contract'
import { ablationDetail } from '../ablation'
import { storedPlan } from './saved'
import { MIN_QUESTIONS } from './verdict'
import { seriesSvg } from './svg'

export interface ReportFile {
  name: string
  content: string
}

const num = (v: number | null, digits = 3): string => (v === null ? '–' : v.toFixed(digits))

/** The one-line verdict the CLI prints and the report heads each claim with; `no evidence` gives its reason instead of an effect. */
export function verdictLine(c: ClaimResult): string {
  if (c.verdict === 'no evidence') return `claim ${c.number} ${c.name}: no evidence (${c.reason})`
  if (c.exact) return `claim ${c.number} ${c.name}: ${c.verdict} (${c.reason}) effect ${num(c.effect.mean)}`
  return `claim ${c.number} ${c.name}: ${c.verdict} effect ${num(c.effect.mean)} CI [${num(c.effect.lower)}, ${num(c.effect.upper)}]`
}

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

export function findingsReport(raw: SQLite.Database, detail: FindingsDetail): ReportFile[] {
  if (!detail.results) throw new ApiError('CONFLICT', `Findings run #${detail.id} has no results yet (${detail.status}): run it to the end first`)
  const files: ReportFile[] = []
  const md: string[] = [
    `# ${detail.name} (#${detail.id})`,
    '',
    `Budget **${detail.config.budget}**, question set ${detail.config.questionSetId}, finished ${detail.finishedAt ?? '–'}.`,
    `Ran on: app ${detail.ranOn?.appVersion ?? '–'}, corpus signature \`${detail.ranOn?.corpusSignature ?? '–'}\`, models: ${detail.ranOn?.models.length ? detail.ranOn.models.map((m) => `\`${m}\``).join(', ') : 'none (head policy, lexical answerer)'}.`,
    `Effects: treatment minus reference, mean over held-out questions (seeds averaged within a question) with a ${detail.results.bootstrap.confidence * 100}% paired percentile bootstrap CI (${detail.results.bootstrap.resamples} resamples, seed ${detail.results.bootstrap.seed}). Verdict: reproduced when the CI excludes zero in the paper's direction, contradicted when it excludes zero the other way, otherwise inconclusive; **no evidence** (with its reason) where the data cannot carry a verdict: fewer than ${MIN_QUESTIONS} paired questions, an arm with the same value on every question, a collapsed policy (every held-out episode after one turn, or one constant evidence or tool count), a training diagnostic the claim needs that did not move, or a CI of zero width. A **complete** effect (every paired question differs, all in one direction, so the bootstrap has nothing to resample) is decided by the paired exact sign test instead, printed with its two-sided p-value.`,
    '',
    '```',
    ...detail.results.claims.map(verdictLine),
    '```',
    '',
  ]
  for (const c of detail.results.claims) {
    md.push(`## Claim ${c.number}: ${c.title}`, '', `**${c.verdict}**: ${c.reason}.`, '')
    md.push(`| | |`, `|---|---|`, `| Paper (${c.paper.source}) | ${c.paper.figure} |`, `| Measured | ${c.effectLabel}: ${num(c.effect.mean)} [${num(c.effect.lower)}, ${num(c.effect.upper)}] over ${c.effect.count} paired units |`)
    md.push(`| Expected direction | ${c.expected} |`, `| Policy | ${c.policy} |`, `| Held-out questions × seeds | ${c.questions} × ${c.seeds} |`, `| Time | ${c.seconds.toFixed(0)} s (ablation #${c.ablationId}) |`, '')
    md.push('| arm | mean [95% CI] | difference vs reference [95% CI] | n |', '|---|---|---|---|')
    for (const a of c.arms) md.push(`| ${a.label} | ${num(a.value.mean)} [${num(a.value.lower)}, ${num(a.value.upper)}] | ${a.difference ? `${num(a.difference.mean)} [${num(a.difference.lower)}, ${num(a.difference.upper)}]` : 'reference'} | ${a.value.count} |`)
    md.push('')
    c.series.forEach((s, i) => {
      const name = `claim${c.number}-${slug(s.title) || i}.svg`
      files.push({ name, content: seriesSvg(s) })
      md.push(`![${s.title}](${name})`, '')
    })
    if (c.departures.length) md.push('Departures from the paper:', '', ...c.departures.map((d) => `- ${d}`), '')
  }
  md.push('Files: `cells.csv` (every cell: experiment, row, question, seed, metric, value), `configs.json` (the findings config, its plan and every experiment\'s ablation config, to repeat the run).', '')
  files.unshift({ name: 'report.md', content: md.join('\n') })

  const csv = ['experiment,ablation_id,row,question_id,seed,metric,value']
  const configs: { findings: unknown; plan: unknown; experiments: unknown[] } = { findings: detail.config, plan: storedPlan(raw, detail.id), experiments: [] }
  for (const e of detail.experiments) {
    const a = ablationDetail(raw, e.ablationId)
    configs.experiments.push({ key: e.key, claims: e.claims, ablationId: e.ablationId, config: a.config, resolved: a.resolved })
    for (const r of a.results?.rows ?? []) {
      for (const [key, ep] of Object.entries(r.episodes)) {
        const [q, seed] = [key.slice(0, key.lastIndexOf(':')), key.slice(key.lastIndexOf(':') + 1)]
        for (const [metric, v] of Object.entries(ep.metrics)) csv.push([e.key, e.ablationId, JSON.stringify(r.label), q, seed, metric, v ?? ''].join(','))
      }
    }
  }
  files.push({ name: 'cells.csv', content: `${csv.join('\n')}\n` }, { name: 'configs.json', content: `${JSON.stringify(configs, null, 2)}\n` })
  return files
}

/** Writes the report's files into `folder` (made if missing), each through a `.partial` renamed into place. */
export function writeFindingsReport(raw: SQLite.Database, detail: FindingsDetail, folder: string): { folder: string; files: string[] } {
  mkdirSync(folder, { recursive: true })
  const files = findingsReport(raw, detail).map((f) => {
    const file = join(folder, f.name)
    writeFileSync(`${file}.partial`, f.content)
    renameSync(`${file}.partial`, file)
    return file
  })
  return { folder, files }
}
