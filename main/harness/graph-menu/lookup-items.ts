import { lookupRejection, type EntityType } from '../../graph/nlp'
import type { MenuItem, Preview } from '../types'
import type { CorpusView } from '../sentence-substrate/corpus'
import type { Episode, KnownEntity } from '../sentence-substrate/episode'
import { clip } from '../sentence-substrate/sentence-items'
import type { RankedSentence, Surfacer } from '../sentence-substrate/surfacing'
import { contentTerms, coverage, normalisedText, queryKey, stemSet } from '../sentence-substrate/terms'

/** What executing a LOOKUP item does; computed with the menu, so the preview is exactly the step. */
export interface LookupPlan {
  entity: KnownEntity
  query: string
  key: string
  adds: RankedSentence[]
}

export interface LookupCaps {
  maxLookup: number
  needTerms: number
  lookupK: number
  lookupSentences: number
  lookupScope: 'entity' | 'corpus'
}

/**
 * The LOOKUP query and its need key. The query is the entity's name plus the question terms the
 * committed evidence does not cover yet (all question terms once it covers none or all of them),
 * leaving out the names of other entities the question mentions: they would pull in their own
 * documents. The need key is the query's term set (queryKey): two LOOKUPs with the same key ask the
 * same thing (entities whose names differ only in form, "Lens Company" and "Lens Companies"), so
 * only the first is offered, once per episode. The policy writes no text, and the same state always
 * gives the same query.
 */
export function lookupQuery(ep: Episode, entity: KnownEntity, maxNeedTerms: number): { query: string; key: string } {
  const own = stemSet(entity.name)
  const questionStems = new Set(ep.questionTerms.map((t) => t.stem))
  const others = new Set<string>()
  for (const e of ep.entities.values()) {
    if (e === entity) continue
    const stems = [...stemSet(e.name)]
    if (stems.length > 0 && stems.every((s) => questionStems.has(s))) for (const s of stems) if (!own.has(s)) others.add(s)
  }
  const unmet = ep.needTerms()
  const need = (unmet.length > 0 ? unmet : ep.questionTerms).filter((t) => !own.has(t.stem) && !others.has(t.stem)).slice(0, maxNeedTerms)
  const query = [entity.name, ...need.map((t) => t.surface)].join(' ')
  return { query, key: queryKey(query) }
}

/**
 * Whether an entity may be a LOOKUP item: never a date or number (a value such as "5" is a hub with
 * hundreds of mentions, and looking it up retrieves noise), nor a name the LOOKUP rules reject. The
 * graph's lookup_ok flag says the same for graphs built now; this also holds for graphs built by
 * older rules, whose stored flags may admit such entities.
 */
export function lookupEligible(entity: Pick<KnownEntity, 'name' | 'type' | 'canonical'>): boolean {
  return lookupRejection({ surface: entity.name, type: entity.type as EntityType, canonical: entity.canonical }) === null
}

/**
 * LOOKUP items: entities seen in the episode that are not visited, whose need key has not been used,
 * and whose retrieval would surface something new. Candidates are examined best prior first (an
 * entity named by the committed evidence is a bridge, one named by the question is its own lead), up
 * to three per menu slot.
 */
export async function lookupItems(
  ep: Episode,
  corpus: CorpusView,
  surfacer: Surfacer,
  caps: LookupCaps,
): Promise<{ items: MenuItem[]; previews: Map<string, Preview>; plans: Map<string, LookupPlan> }> {
  const items: MenuItem[] = []
  const previews = new Map<string, Preview>()
  const plans = new Map<string, LookupPlan>()
  if (caps.maxLookup === 0) return { items, previews, plans }

  const questionStems = new Set(ep.questionTerms.map((t) => t.stem))
  const unmet = ep.needTerms()
  const visibleMentions = new Map<KnownEntity, number>()
  const inEvidence = new Set<KnownEntity>()
  const visibleTitles = new Set<string>()
  for (const s of ep.visible.values()) {
    visibleTitles.add(normalisedText(s.title))
    const counted = new Set<KnownEntity>()
    for (const e of corpus.mentions(s.id)) {
      const known = ep.entityOf(e.id)
      if (!known || counted.has(known)) continue
      counted.add(known)
      visibleMentions.set(known, (visibleMentions.get(known) ?? 0) + 1)
      if (ep.isCommitted(s.id)) inEvidence.add(known)
    }
  }

  const candidates = [...ep.entities.values()]
    .filter((e) => !e.visited && lookupEligible(e))
    .map((entity) => {
      const nameTerms = contentTerms(entity.name)
      const documentVisible = visibleTitles.has(normalisedText(entity.name)) ? 1 : 0
      const features = {
        inQuestion: coverage(nameTerms, questionStems),
        inEvidence: inEvidence.has(entity) ? 1 : 0,
        visibleMentions: visibleMentions.get(entity) ?? 0,
        degree: Math.log1p(entity.ids.reduce((sum, id) => sum + corpus.degree(id), 0)),
        links: entity.ids.reduce((sum, id) => sum + corpus.links(id).length, 0),
        viaLink: entity.fromEntity !== undefined ? 1 : 0,
        documentVisible,
      }
      const prior = 1.5 * features.inEvidence + features.inQuestion + 0.1 * Math.min(features.visibleMentions, 5) + 0.05 * features.degree
      return { entity, features, prior }
    })
    .sort((a, b) => b.prior - a.prior || a.entity.handle - b.entity.handle)

  const keys = new Set<string>()
  let examined = 0
  for (const { entity, features, prior } of candidates) {
    if (items.length >= caps.maxLookup || examined >= caps.maxLookup * 3) break
    const { query, key } = lookupQuery(ep, entity, caps.needTerms)
    if (ep.usedKeys.has(key) || keys.has(key)) continue
    examined++
    const scope = caps.lookupScope === 'entity' ? { documents: corpus.entityDocuments(entity.ids, entity.name) } : {}
    const retrieval = await surfacer.retrieve(query, caps.lookupK, { entityIds: entity.ids, name: entity.name, ...scope })
    const adds = retrieval.ranked.filter((r) => !ep.visible.has(r.row.id)).slice(0, caps.lookupSentences)
    if (adds.length === 0) continue
    keys.add(key)

    let previewOverlap = 0
    let previewNeed = 0
    for (const r of adds) {
      const stems = corpus.stems(r.row.id)
      previewOverlap = Math.max(previewOverlap, coverage(ep.questionTerms, stems))
      previewNeed = Math.max(previewNeed, coverage(unmet, stems))
    }
    const name = normalisedText(entity.name)
    const id = `L${entity.handle}`
    items.push({
      id,
      type: 'LOOKUP',
      label: `LOOKUP ${clip(entity.name, 60)} (${entity.type}): adds ${adds.length} sentence${adds.length === 1 ? '' : 's'}`,
      target: {
        entity: { handle: entity.handle, ids: entity.ids, name: entity.name, type: entity.type, canonical: entity.canonical },
        query,
        key,
        adds: adds.map((r) => ({ id: r.row.id, documentId: r.row.documentId, title: r.row.title, ord: r.row.ord })),
      },
      features: {
        ...features,
        prior,
        retrieval: retrieval.hits[0]?.score ?? 0,
        titleMatch: retrieval.hits.some((h) => normalisedText(h.title) === name) ? 1 : 0,
        newSentences: adds.length,
        newFocus: adds.filter((r) => r.focus > 0).length,
        previewOverlap,
        previewNeed,
        rank: items.length + 1,
      },
    })
    previews.set(id, {
      sentenceIds: adds.map((r) => r.row.id),
      summary: `adds ${adds.length}: ${adds.map((r) => `[${clip(r.row.title, 30)}] ${clip(r.row.text, 80)}`).join(' | ')}`,
    })
    plans.set(id, { entity, query, key, adds })
  }
  return { items, previews, plans }
}
