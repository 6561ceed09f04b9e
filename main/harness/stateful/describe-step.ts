import type { StepView, WorkingMemoryView } from '../../../preload/contract/trajectory'
import { diffSnapshots, type StatefulSnapshot } from './snapshot'

const isSnapshot = (s: unknown): s is StatefulSnapshot =>
  typeof s === 'object' && s !== null && ((s as StatefulSnapshot).mode === 'stateful' || (s as StatefulSnapshot).mode === 'transcript')

/** The working memory as the Trajectory view shows it, picked from a snapshot. */
function memoryView(s: StatefulSnapshot): WorkingMemoryView {
  return {
    mode: s.mode,
    budget: { used: s.budget.used, limit: s.budget.limit, fraction: s.budget.fraction, warning: s.budget.warning, levelName: s.budget.levelName, tokenizer: s.budget.tokenizer },
    curated: s.curated.map((c) => ({ id: c.id, title: c.title, tag: c.tag, via: c.via, summary: c.summary })),
    curatedByTag: s.curatedByTag,
    pool: s.pool.map((p) => ({ id: p.id, title: p.title, summary: p.summary, query: p.query })),
    evidenceGraph: s.evidenceGraph
      ? { bridges: s.evidenceGraph.bridges.map((b) => ({ entity: b.entity, type: b.type, docIds: b.docIds })), bridgeCount: s.evidenceGraph.bridgeCount, singleDocEntities: s.evidenceGraph.singleDocEntities }
      : null,
    verifications: s.verifications ? s.verifications.map((v) => ({ claim: v.claim, docIds: v.docIds, verdict: v.verdict, checker: v.checker, lexical: v.lexical })) : null,
  }
}

/** One line per kind of change a Harness-1 step made to the working memory, and the memory after it. */
export function describeStatefulStep(before: unknown, after: unknown): StepView {
  if (!isSnapshot(after)) return { changes: [], memory: null, committed: null }
  const memory = memoryView(after)
  if (!isSnapshot(before)) return { changes: ['initial state'], memory, committed: null }
  const d = diffSnapshots(before, after)
  const out: string[] = []
  const list = (xs: string[]) => xs.slice(0, 8).join(', ') + (xs.length > 8 ? ` +${xs.length - 8}` : '')
  if (d.curated.added.length) out.push(`curated +${d.curated.added.length}: ${list(d.curated.added.map((c) => `${c.id}${c.tag ? ` (${c.tag})` : ''}`))}`)
  if (d.curated.removed.length) out.push(`curated -${d.curated.removed.length}: ${list(d.curated.removed.map((c) => c.id))}`)
  if (d.curated.retagged.length) out.push(`retagged: ${list(d.curated.retagged.map((c) => `${c.id} ${c.from ?? '-'}→${c.to ?? '-'}`))}`)
  if (d.pool.added.length) out.push(`pool +${d.pool.added.length}`)
  if (d.seen.added.length) out.push(`seen +${d.seen.added.length}`)
  if (d.evidenceGraph?.bridgesAdded.length) out.push(`bridge entities +${d.evidenceGraph.bridgesAdded.length}: ${list(d.evidenceGraph.bridgesAdded)}`)
  if (d.verificationsAdded.length) out.push(`verified: ${d.verificationsAdded.map((v) => `${v.verdict} (${v.checker})`).join('; ')}`)
  if (d.budget.warningTo !== d.budget.warningFrom && d.budget.warningTo !== null) out.push(`budget warning ${d.budget.warningTo}%`)
  out.push(`context ${d.budget.from} → ${d.budget.to} tokens`)
  if (d.formatErrors.to > d.formatErrors.from) out.push('format error')
  return { changes: out, memory, committed: null }
}
