import type { Action, EnvQuestion } from '../types'
import type { CorpusView, EntityRow } from './corpus'
import type { RankedSentence } from './surfacing'
import { contentTerms, type Term } from './terms'

/** A sentence the agent can see. `handle` is its episode-local number: "S3", "W3" and "#3" name it. */
export interface VisibleSentence {
  id: number
  handle: number
  documentId: number
  title: string
  ord: number
  text: string
  /** Turn that surfaced it (0 = reset). */
  step: number
  /** What surfaced it: "reset", a menu id such as "L2", or "search". */
  via: string
  /** Retrieval features at the time it surfaced. */
  retrieval: number
  chunkRank: number
  /** How a LOOKUP surfaced it: 2 in its entity's document, 1 mentioning the entity, 0 otherwise. */
  focus: number
}

/** A LOOKUP-able entity seen in the episode; rows sharing a canonical name are merged under one handle. */
export interface KnownEntity {
  handle: number
  canonical: string
  name: string
  type: string
  /** Entity rows merged here, ascending. */
  ids: number[]
  step: number
  via: string
  /** The visible sentence whose mention surfaced it, or the entity whose neighbour link did. */
  fromSentence?: number
  fromEntity?: number
  visited: boolean
}

export interface HistoryEntry {
  turn: number
  action: Action
  valid: boolean
  formatError?: string
  /** SELECT, LOOKUP, ANSWER_WITH, ANSWER or SEARCH; absent for invalid steps. */
  type?: string
  itemId?: string
  query?: string
  key?: string
  summary: string
  added: { sentenceIds: number[]; entityIds: number[] }
  committed?: number
}

/** Which step surfaced a sentence or entity, and from what: the edges enablement credit flows back along. */
export interface ProvenanceEdge {
  kind: 'sentence' | 'entity'
  id: number
  step: number
  via: string
  fromSentence?: number
  fromEntity?: number
}

/** ANSWER is always on the menu, so an episode never runs out of actions: it is answered or runs out of turns. */
export type EndReason = 'answer' | 'turn-limit'

/** The state of one episode. Transitions live in the environments; this class only keeps the books. */
export class Episode {
  readonly questionTerms: Term[]
  readonly visible = new Map<number, VisibleSentence>()
  readonly committed: number[] = []
  /** By canonical name. */
  readonly entities = new Map<string, KnownEntity>()
  private readonly entityOfRow = new Map<number, KnownEntity>()
  readonly usedKeys = new Set<string>()
  readonly history: HistoryEntry[] = []
  readonly provenance: ProvenanceEdge[] = []
  turn = 0
  formatErrors = 0
  done = false
  endReason: EndReason | null = null
  private nextSentence = 1
  private nextEntity = 1

  constructor(
    readonly question: EnvQuestion,
    readonly seed: number,
    private readonly corpus: CorpusView,
  ) {
    this.questionTerms = contentTerms(question.question)
  }

  isCommitted(sentenceId: number): boolean {
    return this.committed.includes(sentenceId)
  }

  entityOf(rowId: number): KnownEntity | undefined {
    return this.entityOfRow.get(rowId)
  }

  /** Makes sentences visible (those already visible are skipped) and records the entities they mention. */
  surface(ranked: readonly RankedSentence[], via: string): { sentenceIds: number[]; entityIds: number[] } {
    const added = { sentenceIds: [] as number[], entityIds: [] as number[] }
    for (const r of ranked) {
      if (this.visible.has(r.row.id)) continue
      const { id, documentId, title, ord, text } = r.row
      this.visible.set(id, { id, handle: this.nextSentence++, documentId, title, ord, text, step: this.turn, via, retrieval: r.retrieval, chunkRank: r.chunkRank, focus: r.focus })
      this.provenance.push({ kind: 'sentence', id, step: this.turn, via })
      added.sentenceIds.push(id)
      for (const e of this.corpus.mentions(id)) {
        if (this.admitEntity(e, via, { fromSentence: id })) added.entityIds.push(e.id)
      }
    }
    return added
  }

  /**
   * Records an entity row; returns true when the row is new to the episode. Filtered types
   * (lookup_ok = 0) are never admitted: they stay readable in the sentence text only.
   */
  admitEntity(e: EntityRow, via: string, from: { fromSentence?: number; fromEntity?: number }): boolean {
    if (!e.lookupOk || this.entityOfRow.has(e.id)) return false
    let known = this.entities.get(e.canonical)
    if (known) {
      known.ids = [...known.ids, e.id].sort((a, b) => a - b)
    } else {
      known = { handle: this.nextEntity++, canonical: e.canonical, name: e.name, type: e.type, ids: [e.id], step: this.turn, via, ...from, visited: false }
      this.entities.set(e.canonical, known)
    }
    this.entityOfRow.set(e.id, known)
    this.provenance.push({ kind: 'entity', id: e.id, step: this.turn, via, ...from })
    return true
  }

  /** Stems of the committed evidence: what the question no longer needs. */
  coveredStems(): Set<string> {
    const covered = new Set<string>()
    for (const id of this.committed) for (const s of this.corpus.stems(id)) covered.add(s)
    return covered
  }

  /** Question terms the committed evidence does not cover yet (empty once it covers them all). */
  needTerms(): Term[] {
    const covered = this.coveredStems()
    return this.questionTerms.filter((t) => !covered.has(t.stem))
  }

  end(reason: EndReason): void {
    this.done = true
    this.endReason = reason
  }
}
