/**
 * Replay: the snapshot is the whole working memory exactly as the policy saw it after a step (it is
 * captured when the observation is rendered, never recomputed later), and diffSnapshots says what a
 * step changed, section by section, for the Trajectory view and the ablation tests.
 */
import type { StatefulConfig } from './config'
import type { ImportanceTag } from './curated-set'
import type { EvidenceGraphView } from './evidence-graph'
import type { CuratedView, PoolEntry, SearchRecord, VerificationRecord } from './memory'
import type { LastResultView, RenderedSection, SectionName } from './render'
import type { TranscriptEntry } from './transcript'

export interface BudgetView {
  /** Tokens of the rendered context. */
  used: number
  limit: number
  fraction: number
  /** Warning threshold crossed (60, 75, 90) or null. */
  warning: 60 | 75 | 90 | null
  tokenizer: string
  /** Degradation step of the rendering (0 = full). */
  level: number
  levelName: string
}

/** The structured observation (Observation.data). Working-memory fields are absent in transcript mode. */
export interface StatefulObservationData {
  [key: string]: unknown
  mode: 'stateful' | 'transcript'
  question: string
  /** Turns taken so far. */
  turn: number
  maxTurns: number
  done: boolean
  endReason: string | null
  tools: string[]
  lastResult: LastResultView | null
  /** The context budget, shown with the budget markers; null with them off (the policy is not told). */
  budget: BudgetView | null
  curated?: CuratedView[]
  /** Curated ids by tag, strongest first ("untagged" when tags are off). */
  curatedByTag?: Record<ImportanceTag | 'untagged', string[]>
  /** Candidates not curated, in rendering order (newest first). */
  pool?: PoolEntry[]
  evidenceGraph?: EvidenceGraphView | null
  verifications?: VerificationRecord[] | null
  history?: SearchRecord[]
}

export interface StatefulSnapshot {
  environment: string
  mode: 'stateful' | 'transcript'
  config: StatefulConfig
  questionId: string
  question: string
  seed: number
  turn: number
  maxTurns: number
  done: boolean
  endReason: string | null
  endReasoning: string | null
  tools: string[]
  curated: CuratedView[]
  curatedByTag: Record<ImportanceTag | 'untagged', string[]>
  pool: PoolEntry[]
  /** Every document shown in this episode, in the order first shown. */
  seen: string[]
  duplicates: { id: string; duplicateOf: string; similarity: number }[]
  evidenceGraph: EvidenceGraphView | null
  verifications: VerificationRecord[] | null
  history: SearchRecord[]
  lastResult: LastResultView | null
  budget: BudgetView
  toolCounts: Record<string, number>
  formatErrors: number
  /** Ids whose full text is held in the outer tier. */
  outerTier: string[]
  transcript: TranscriptEntry[] | null
  rendered: { text: string; tokens: number; sections: RenderedSection[] }
}

export interface SnapshotDiff {
  turn: { from: number; to: number }
  /** Rendered sections whose text changed, appeared or disappeared. */
  sections: SectionName[]
  /** Top-level state fields that changed (rendered text and config excluded). */
  fields: string[]
  curated: {
    added: { id: string; tag: ImportanceTag | null }[]
    removed: { id: string; tag: ImportanceTag | null }[]
    retagged: { id: string; from: ImportanceTag | null; to: ImportanceTag | null }[]
  }
  pool: { added: string[]; removed: string[] }
  seen: { added: string[] }
  evidenceGraph: { bridgesAdded: string[]; bridgesRemoved: string[]; singleDocEntities: { from: number; to: number } } | null
  verificationsAdded: VerificationRecord[]
  historyAdded: SearchRecord[]
  budget: { from: number; to: number; warningFrom: number | null; warningTo: number | null; levelFrom: number; levelTo: number }
  formatErrors: { from: number; to: number }
}

const IGNORED_FIELDS = new Set(['rendered', 'config'])

export function diffSnapshots(a: StatefulSnapshot, b: StatefulSnapshot): SnapshotDiff {
  const fields = Object.keys({ ...a, ...b }).filter(
    (k) => !IGNORED_FIELDS.has(k) && JSON.stringify((a as unknown as Record<string, unknown>)[k]) !== JSON.stringify((b as unknown as Record<string, unknown>)[k]),
  )
  const aCur = new Map(a.curated.map((c) => [c.id, c]))
  const bCur = new Map(b.curated.map((c) => [c.id, c]))
  const aPool = new Set(a.pool.map((p) => p.id))
  const bPool = new Set(b.pool.map((p) => p.id))
  const aSeen = new Set(a.seen)
  const bridges = (s: StatefulSnapshot) => new Set((s.evidenceGraph?.bridges ?? []).map((x) => x.entity))
  const aB = bridges(a)
  const bB = bridges(b)
  return {
    turn: { from: a.turn, to: b.turn },
    sections: changedSections(a.rendered.sections, b.rendered.sections),
    fields,
    curated: {
      added: b.curated.filter((c) => !aCur.has(c.id)).map((c) => ({ id: c.id, tag: c.tag })),
      removed: a.curated.filter((c) => !bCur.has(c.id)).map((c) => ({ id: c.id, tag: c.tag })),
      retagged: b.curated.filter((c) => aCur.has(c.id) && aCur.get(c.id)!.tag !== c.tag).map((c) => ({ id: c.id, from: aCur.get(c.id)!.tag, to: c.tag })),
    },
    pool: { added: [...bPool].filter((id) => !aPool.has(id)), removed: [...aPool].filter((id) => !bPool.has(id)) },
    seen: { added: b.seen.filter((id) => !aSeen.has(id)) },
    evidenceGraph:
      a.evidenceGraph || b.evidenceGraph
        ? {
            bridgesAdded: [...bB].filter((e) => !aB.has(e)),
            bridgesRemoved: [...aB].filter((e) => !bB.has(e)),
            singleDocEntities: { from: a.evidenceGraph?.singleDocEntities ?? 0, to: b.evidenceGraph?.singleDocEntities ?? 0 },
          }
        : null,
    verificationsAdded: (b.verifications ?? []).slice((a.verifications ?? []).length),
    historyAdded: b.history.slice(a.history.length),
    budget: {
      from: a.budget.used,
      to: b.budget.used,
      warningFrom: a.budget.warning,
      warningTo: b.budget.warning,
      levelFrom: a.budget.level,
      levelTo: b.budget.level,
    },
    formatErrors: { from: a.formatErrors, to: b.formatErrors },
  }
}

/** Names of sections whose text differs between two renderings (by name; repeated names compared in order). */
export function changedSections(a: readonly RenderedSection[], b: readonly RenderedSection[]): SectionName[] {
  const group = (xs: readonly RenderedSection[]) => {
    const m = new Map<SectionName, string[]>()
    for (const s of xs) m.set(s.name, [...(m.get(s.name) ?? []), s.text])
    return m
  }
  const ga = group(a)
  const gb = group(b)
  const names = new Set<SectionName>([...ga.keys(), ...gb.keys()])
  return [...names].filter((n) => JSON.stringify(ga.get(n) ?? null) !== JSON.stringify(gb.get(n) ?? null))
}
