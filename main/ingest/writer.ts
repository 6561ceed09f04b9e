import type SQLite from 'better-sqlite3'
import type { GoldQuestion, IngestFailureReason } from '../corpus/types'
import { isLookupTarget, lookupType, type EntityType } from '../graph/nlp'
import { deleteMeta, readMeta } from '../db/meta'
import { ENTITY_TYPES } from './entity-types'
import { MENTION_FIELDS, SENTENCE_FIELDS, sentenceCount, type PreparedDocument } from './prepare'
import { fileHasDocuments, fileRecord, writerStatements } from './writer-statements'

/** Why a file failed: its parser's reason, its budget ('timeout', 'out-of-memory'), or 'internal'. */
export type FileFailureReason = IngestFailureReason | 'timeout' | 'out-of-memory' | 'internal'

/** source_files.error_reason of an ingested file whose `error` column holds notes, not an error. */
export const NOTES_REASON = 'notes'

/** How weak a surface is as a display name: possessive ("Lovelace's") worst, then shouted ("ADA LOVELACE"). */
const weakness = (surface: string): number => (/['’]s$/u.test(surface) ? 2 : 0) + (/\p{Lu}{4}/u.test(surface) && !/\p{Ll}/u.test(surface) ? 1 : 0)

/**
 * Whether `candidate` is a better display name than `current` for the same entity: less weak (not
 * possessive, not in capitals), then longer ("Ada Lovelace" over "Lovelace"), then the first in
 * code-unit order. A total order over surfaces, so an entity's name is the best of its mentions
 * whatever order the files came in.
 */
export function betterName(candidate: string, current: string): boolean {
  const w = weakness(candidate) - weakness(current)
  if (w !== 0) return w < 0
  if (candidate.length !== current.length) return candidate.length > current.length
  return candidate < current
}

interface EntityState {
  id: number
  name: string
  /** Stored flag: some mention is a LOOKUP target and the entity's type can be one. */
  lookupOk: boolean
  /** Some mention was a LOOKUP target as read (with its own type). */
  anyTarget: boolean
  type: string
  /** Mentions of the entity by the type each was read with. */
  votes: Map<string, number>
}

const TYPE_ORDER = new Map<string, number>(ENTITY_TYPES.map((t, i) => [t, i]))

/**
 * An entity's type from its mentions' types: the most frequent, a real type before NAME (an untyped
 * proper name), ties to the first in ENTITY_TYPES. A function of the set of mentions, so the type
 * never depends on the order files were written in.
 */
export function votedType(votes: ReadonlyMap<string, number>): string {
  let best: string | undefined
  let bestCount = 0
  for (const [type, n] of votes) {
    if (n <= 0) continue
    if (best === undefined) {
      best = type
      bestCount = n
      continue
    }
    const untyped = (type === 'NAME' ? 1 : 0) - (best === 'NAME' ? 1 : 0)
    const better = untyped < 0 || (untyped === 0 && (n > bestCount || (n === bestCount && (TYPE_ORDER.get(type) ?? 99) < (TYPE_ORDER.get(best) ?? 99))))
    if (better) {
      best = type
      bestCount = n
    }
  }
  if (best === undefined) throw new Error('an entity without mentions has no type')
  return best
}

/** Meta key set when files changed since entity links were last computed. */
const LINKS_DIRTY = 'entity_links_dirty'

export interface FileRecord {
  path: string
  format: string
  sizeBytes: number
  /** Content hash combined with the chunking settings: a change of either re-ingests the file. */
  signature: string
  /** What the file's record should say about an ingested file (skipped lines, the plain HTML extractor). */
  notes?: string[]
}

export interface WriteCounts {
  documents: number
  chunks: number
  sentences: number
  mentions: number
  questions: number
}

/**
 * All writes of the ingest, each file in one transaction: a crash or cancel between files leaves
 * every file either fully old or fully new. Raw prepared statements: this is the hot path.
 */
export class CorpusWriter {
  private readonly entities = new Map<string, EntityState>()
  private readonly s

  constructor(private readonly raw: SQLite.Database) {
    this.s = writerStatements(raw)
  }

  /** True when the file was already ingested successfully with the same content and settings. */
  isUnchanged(path: string, signature: string): boolean {
    const row = this.s.fileByPath.get(path)
    return row !== undefined && row.sha256 === signature && row.status === 'ok'
  }

  /** The failure recorded for the file under the same signature (content, settings, limits), if any. */
  failedBefore(path: string, signature: string): { reason: string; error: string } | null {
    const row = fileRecord(this.raw, path)
    if (!row || row.status !== 'failed' || row.sha256 !== signature) return null
    return { reason: row.error_reason ?? 'internal', error: row.error ?? '' }
  }

  /** Replaces the file's previous content, if any, with the new documents and questions. */
  writeFile(file: FileRecord, docs: readonly PreparedDocument[], questions: readonly GoldQuestion[], questionSet?: { name: string; source: string }): WriteCounts {
    const counts: WriteCounts = { documents: 0, chunks: 0, sentences: 0, mentions: 0, questions: 0 }
    try {
      this.writeFileTransaction(file, docs, questions, questionSet, counts)
    } catch (err) {
      // The rollback also undid entity rows and names this transaction wrote; their cached state would be stale.
      this.entities.clear()
      throw err
    }
    return counts
  }

  private writeFileTransaction(
    file: FileRecord,
    docs: readonly PreparedDocument[],
    questions: readonly GoldQuestion[],
    questionSet: { name: string; source: string } | undefined,
    counts: WriteCounts,
  ): void {
    this.raw.transaction(() => {
      // Whole-corpus relations (entity links) are stale from this commit on, even if the run is then cancelled.
      this.s.setMeta.run(LINKS_DIRTY, '1')
      const existing = this.s.fileByPath.get(file.path)
      // Entities the old version mentioned: their names and LOOKUP flags are recomputed once it is gone.
      const touched = existing ? this.s.fileEntities.pluck().all(existing.id) : []
      if (existing) {
        this.s.deleteFts.run(existing.id)
        this.s.deleteDocs.run(existing.id)
      }
      const notes = file.notes && file.notes.length > 0 ? file.notes.join('\n') : null
      const { id: fileId } = this.s.insertFile.get({
        path: file.path, format: file.format, size: file.sizeBytes, sha: file.signature, status: 'ok',
        reason: notes ? NOTES_REASON : null, error: notes, docs: docs.length, at: new Date().toISOString(),
      })!
      for (const d of docs) this.writeDocument(fileId, d, counts)
      for (const id of touched) this.refreshEntity(id)
      if (questions.length > 0 && questionSet) {
        const { id: setId } = this.s.questionSet.get(questionSet.name, questionSet.source, new Date().toISOString())!
        for (const q of questions) {
          this.s.insertQuestion.run(setId, q.externalId, q.question, JSON.stringify(q.answers), q.type ?? null, JSON.stringify(q.supportingFacts), JSON.stringify(q.supportingDocs))
          counts.questions++
        }
      }
    }).immediate()
  }

  private writeDocument(fileId: number, d: PreparedDocument, counts: WriteCounts): void {
    const row = this.s.insertDoc.get(fileId, d.doc.externalId, d.doc.title, d.doc.text, d.tokenCount, d.doc.source.record ?? null, d.doc.metadata ? JSON.stringify(d.doc.metadata) : null)
    if (!row) return // a duplicate record id within one file: the first one wins
    counts.documents++
    const S = d.sentences
    const M = d.mentions
    const n = sentenceCount(d)
    // A sentence belongs to the first chunk that holds it (chunks overlap by whole sentences).
    const chunkOfSentence = new Array<number>(n)
    for (const c of d.chunks) {
      const text = d.doc.text.slice(c.startChar, c.endChar)
      const firstOrd = S[c.firstSentence * SENTENCE_FIELDS]!
      const lastOrd = S[c.lastSentence * SENTENCE_FIELDS]!
      const { id: chunkId } = this.s.insertChunk.get(row.id, c.ord, text, c.startChar, c.endChar, c.tokenCount, firstOrd, lastOrd)!
      this.s.insertFts.run(BigInt(chunkId), d.doc.title, text)
      for (let i = c.firstSentence; i <= c.lastSentence; i++) chunkOfSentence[i] ??= chunkId
      counts.chunks++
    }
    let m = 0
    const mentionRows = M.length / MENTION_FIELDS
    for (let i = 0; i < n; i++) {
      const at = i * SENTENCE_FIELDS
      const start = S[at + 1]!
      const end = S[at + 2]!
      const text = d.doc.text.slice(start, end)
      const { id: sentenceId } = this.s.insertSentence.get(row.id, chunkOfSentence[i], S[at]!, text, start, end)!
      counts.sentences++
      for (; m < mentionRows && M[m * MENTION_FIELDS] === i; m++) {
        const k = m * MENTION_FIELDS
        const surface = text.slice(M[k + 1]!, M[k + 2]!)
        const type = ENTITY_TYPES[M[k + 3]!]!
        const entity = this.entity(d.canonicals[M[k + 5]!]!, type, surface, M[k + 4] === 1)
        const added = this.s.insertMention.run(sentenceId, entity.id, M[k + 1]!, M[k + 2]!, surface, type).changes
        if (added > 0) this.vote(entity, type)
        counts.mentions += added
      }
    }
  }

  /**
   * The entity of a canonical name, created when new: one entity per name whatever type each mention
   * was read with. Its name is the best surface of its mentions (betterName), its LOOKUP flag is set
   * when any mention is a target and its type is voted by its mentions (votedType): all depend on the
   * set of mentions, never on the order files were written in.
   */
  private entity(canonical: string, type: string, surface: string, lookupOk: boolean): EntityState {
    let state = this.entities.get(canonical)
    if (!state) {
      const row = this.s.entityByKey.get(canonical)
      if (!row) {
        const { id } = this.s.insertEntity.get(canonical, type, surface, lookupOk ? 1 : 0)!
        state = { id, name: surface, lookupOk, anyTarget: lookupOk, type, votes: new Map() }
        this.entities.set(canonical, state)
        return state
      }
      const votes = new Map(this.s.entityVotes.all(row.id).map((r) => [r.type, r.n]))
      // A stored flag of 0 may hide a target mention under a value type; the refresh after a file's replacement recomputes it.
      const anyTarget = row.lookup_ok === 1 || (!lookupType(row.type) && this.anyTargetOf(row.id, canonical))
      state = { id: row.id, name: row.name, lookupOk: row.lookup_ok === 1, anyTarget, type: row.type, votes }
      this.entities.set(canonical, state)
    }
    const name = betterName(surface, state.name) ? surface : state.name
    state.anyTarget ||= lookupOk
    const ok = state.anyTarget && lookupType(state.type)
    if (name !== state.name || ok !== state.lookupOk) {
      state.name = name
      state.lookupOk = ok
      this.s.updateEntity.run(name, ok ? 1 : 0, state.type, state.id)
    }
    return state
  }

  private anyTargetOf(id: number, canonical: string): boolean {
    const surfaces = this.s.entitySurfaces.all(id)
    return surfaces.some(({ surface, type }) => isLookupTarget({ surface, type, canonical }))
  }

  /** Counts a stored mention's type towards its entity's type. */
  private vote(state: EntityState, type: string): void {
    state.votes.set(type, (state.votes.get(type) ?? 0) + 1)
    const voted = votedType(state.votes)
    if (voted !== state.type) {
      state.type = voted
      state.lookupOk = state.anyTarget && lookupType(voted)
      this.s.updateEntity.run(state.name, state.lookupOk ? 1 : 0, voted, state.id)
    }
  }

  /**
   * Recomputes an entity's name and LOOKUP flag from the mentions it has left after a file was
   * replaced, or drops it when none are left, so an incremental re-ingest ends where a fresh one would.
   */
  private refreshEntity(id: number): void {
    const row = this.s.entityRow.get(id)
    if (!row) return
    const surfaces = this.s.entitySurfaces.all(id)
    if (surfaces.length === 0) {
      this.s.deleteEntity.run(id)
      this.entities.delete(row.canonical)
      return
    }
    let name = surfaces[0]!.surface
    for (const { surface } of surfaces) if (betterName(surface, name)) name = surface
    const anyTarget = surfaces.some(({ surface, type }) => isLookupTarget({ surface, type, canonical: row.canonical }))
    const votes = new Map(this.s.entityVotes.all(id).map((r) => [r.type, r.n]))
    const type = votedType(votes)
    const lookupOk = anyTarget && lookupType(type)
    this.s.updateEntity.run(name, lookupOk ? 1 : 0, type, id)
    this.entities.set(row.canonical, { id, name, lookupOk, anyTarget, type, votes })
  }

  /**
   * Records a failure under `file.signature` (so the same content is not parsed again until it
   * changes). A previously ingested version of the file is kept, and the error says so.
   */
  writeFailure(file: Omit<FileRecord, 'signature'> & { signature?: string }, reason: FileFailureReason, message: string): void {
    const at = new Date().toISOString()
    const existing = this.s.fileByPath.get(file.path)
    if (existing) {
      // Documents of an earlier successful version stay until the file is ingested again.
      const keeps = existing.status === 'ok' || fileHasDocuments(this.raw, existing.id)
      const kept = keeps ? ' (the previously ingested version is kept)' : ''
      this.s.markFailed.run(file.signature ?? existing.sha256, reason, `${message}${kept}`, at, file.path)
      return
    }
    this.s.insertFile.get({ path: file.path, format: file.format, size: file.sizeBytes, sha: file.signature ?? '', status: 'failed', reason, error: message, docs: 0, at })
  }

  /** Entities no longer mentioned anywhere (their files changed or went) are dropped with their links. */
  dropOrphanEntities(): number {
    this.entities.clear()
    return this.s.orphanEntities.run().changes
  }

  linksDirty(): boolean {
    return readMeta(this.raw, LINKS_DIRTY) === '1'
  }

  markLinksClean(): void {
    deleteMeta(this.raw, LINKS_DIRTY)
  }
}
