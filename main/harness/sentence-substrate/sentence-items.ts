import { MENU_ANSWER_ID } from '../../../preload/contract/protocols'
import type { MenuItem, Preview } from '../types'
import type { CorpusView } from './corpus'
import type { Episode, VisibleSentence } from './episode'
import { coverage, hits, normalisedText, stemSet } from './terms'

/** Where a menu item points: enough for scripted policies, the oracle and the trajectory view. */
export interface SentenceRef {
  id: number
  handle: number
  documentId: number
  title: string
  ord: number
}

export const sentenceRef = (s: VisibleSentence): SentenceRef => ({ id: s.id, handle: s.handle, documentId: s.documentId, title: s.title, ord: s.ord })

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
}

export interface BuiltItems {
  items: MenuItem[]
  previews: Map<string, Preview>
}

/**
 * SELECT, ANSWER_WITH and ANSWER items over the visible, uncommitted sentences. Sentences with the
 * same text are merged (the first to surface stands for them), and so are those repeating committed
 * text. Items are ranked by how much of the question's unmet need a sentence covers, then overlap,
 * graph position and retrieval score. The SELECT cap keeps the sentences the latest LOOKUP or search
 * surfaced (what the agent just asked for is always selectable, up to `reserved` of them) and fills
 * the rest by rank. Nothing here depends on the turn, so an invalid step leaves the menu as it was.
 */
export function sentenceItems(
  ep: Episode,
  corpus: CorpusView,
  caps: { maxSelect: number; maxAnswerWith: number; reserved: number },
): { select: BuiltItems; answer: BuiltItems } {
  const need = ep.needTerms()
  const committedTexts = new Set(ep.committed.map((id) => normalisedText(corpus.sentence(id).text)))
  const committedDocs = new Set(ep.committed.map((id) => corpus.sentence(id).documentId))
  const questionStems = new Set(ep.questionTerms.map((t) => t.stem))
  const namedByQuestion = (name: string): boolean => {
    const stems = stemSet(name)
    return stems.size > 0 && [...stems].every((s) => questionStems.has(s))
  }
  // Graph context: entities the question names, and those the committed evidence mentions (bridges).
  const questionEntities = new Set<number>()
  for (const e of ep.entities.values()) if (namedByQuestion(e.name)) for (const id of e.ids) questionEntities.add(id)
  const evidenceEntities = new Set<number>()
  const evidenceNames = new Set<string>()
  for (const id of ep.committed) {
    for (const e of corpus.mentions(id)) {
      if (!e.lookupOk || questionEntities.has(e.id)) continue
      evidenceEntities.add(e.id)
      evidenceNames.add(normalisedText(e.name))
    }
  }

  let latest = 0
  for (const s of ep.visible.values()) latest = Math.max(latest, s.step)

  const texts = new Set<string>()
  const scored: { s: VisibleSentence; features: Record<string, number>; score: number }[] = []
  for (const s of ep.visible.values()) {
    if (ep.isCommitted(s.id)) continue
    const text = normalisedText(s.text)
    if (committedTexts.has(text) || texts.has(text)) continue
    texts.add(text)
    const stems = corpus.stems(s.id)
    const mentioned = corpus.mentions(s.id)
    const features = {
      retrieval: s.retrieval,
      chunkRank: s.chunkRank,
      overlap: coverage(ep.questionTerms, stems),
      need: coverage(need, stems),
      needHits: hits(need, stems),
      questionEntity: mentioned.some((e) => questionEntities.has(e.id)) ? 1 : 0,
      questionDocument: namedByQuestion(s.title) ? 1 : 0,
      evidenceEntity: mentioned.some((e) => evidenceEntities.has(e.id)) ? 1 : 0,
      evidenceDocument: evidenceNames.has(normalisedText(s.title)) ? 1 : 0,
      focus: s.focus,
      lead: s.ord === 0 ? 1 : 0,
      sameDocument: committedDocs.has(s.documentId) ? 1 : 0,
      fromLookup: s.step > 0 ? 1 : 0,
      latest: s.step === latest ? 1 : 0,
      surfacedAt: s.step,
      // Shared with LOOKUP items, so one feature vector fits every item: committing surfaces nothing.
      newSentences: 0,
    }
    // Lexical need first; then where the sentence sits in the graph: in a document the question names,
    // or one step from the committed evidence (the second hop of a bridge rarely repeats question words).
    const score =
      2 * features.need +
      features.overlap +
      0.25 * features.retrieval +
      0.5 * features.questionDocument +
      0.75 * features.evidenceDocument +
      0.25 * features.evidenceEntity
    scored.push({ s, features, score })
  }
  scored.sort((a, b) => b.score - a.score || a.s.handle - b.s.handle)
  const reserved = new Set(scored.filter((x) => x.features.latest === 1).slice(0, Math.min(caps.reserved, caps.maxSelect)))
  const room = caps.maxSelect - reserved.size
  let filled = 0
  const selectable = scored.filter((x) => reserved.has(x) || filled++ < room)

  const select: BuiltItems = { items: [], previews: new Map() }
  const answer: BuiltItems = { items: [], previews: new Map() }
  selectable.forEach(({ s, features, score }, i) => {
    const id = `S${s.handle}`
    select.items.push({
      id,
      type: 'SELECT',
      label: `SELECT #${s.handle} [${clip(s.title, 40)}] ${clip(s.text, 120)}`,
      target: { sentence: sentenceRef(s), adds: [sentenceRef(s)] },
      features: { ...features, rank: i + 1, score },
    })
    select.previews.set(id, { sentenceIds: [s.id], summary: `commits #${s.handle}: ${clip(s.text, 160)}` })
  })
  scored.slice(0, caps.maxAnswerWith).forEach(({ s, features, score }, i) => {
    const id = `W${s.handle}`
    answer.items.push({
      id,
      type: 'ANSWER_WITH',
      label: `ANSWER_WITH #${s.handle} [${clip(s.title, 40)}] ${clip(s.text, 120)}`,
      target: { sentence: sentenceRef(s), adds: [sentenceRef(s)] },
      features: { ...features, rank: i + 1, score },
    })
    answer.previews.set(id, { sentenceIds: [s.id], summary: `commits #${s.handle} and answers: ${clip(s.text, 160)}` })
  })
  answer.items.push({
    id: MENU_ANSWER_ID,
    type: 'ANSWER',
    label: `ANSWER with the ${ep.committed.length} committed sentence${ep.committed.length === 1 ? '' : 's'}`,
    target: { adds: [] },
    features: { committed: ep.committed.length, newSentences: 0 },
  })
  answer.previews.set(MENU_ANSWER_ID, { sentenceIds: [], summary: `answers with ${ep.committed.length} committed sentence(s); adds nothing` })
  return { select, answer }
}
