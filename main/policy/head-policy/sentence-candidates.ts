/**
 * Candidates of the sentence substrate for the head: the menu items themselves (graph-menu), or in free
 * query the SELECT / ANSWER_WITH / ANSWER items plus K search strings a deterministic generator writes
 * from the question, the visible evidence and the known entities. The head stands in for an LLM writing
 * queries there, so several strings can retrieve the same sentences (the many-to-one mapping is real).
 */
import type { MenuItem, Observation } from '../../harness'
import { SEARCH_TOOL, stemSet, type SentenceEnvData } from '../../harness'
import { entityQuery, searchKey, sentenceData, unmetTerms, usedQueryKeys } from '../scripted/harness-g/observation'
import type { Candidate, CandidateBuilder } from './candidate'
import { squash, type FeatureLayout, type StateFeatures } from './features'
import { ANSWER_CONTEXT_FEATURES, LOOKUP_CONTEXT_FEATURES, SENTENCE_CONTEXT_FEATURES, withMenuContext } from './menu-context'
import { ANSWER_TEXT_FEATURES, SENTENCE_TEXT_FEATURES, withTextFeatures } from './text-features'

export type { Candidate, CandidateBuilder } from './candidate'

const SENTENCE_FEATURES = [
  'retrieval', 'chunkRank', 'overlap', 'need', 'needHits', 'questionEntity', 'questionDocument', 'evidenceEntity',
  'evidenceDocument', 'focus', 'lead', 'sameDocument', 'fromLookup', 'latest', 'rank', 'score', ...SENTENCE_CONTEXT_FEATURES, ...SENTENCE_TEXT_FEATURES,
] as const
const LOOKUP_FEATURES = [
  'inQuestion', 'inEvidence', 'visibleMentions', 'degree', 'links', 'viaLink', 'documentVisible', 'prior', 'retrieval',
  'titleMatch', 'newSentences', 'newFocus', 'previewOverlap', 'previewNeed', 'rank', ...LOOKUP_CONTEXT_FEATURES,
] as const
const ANSWER_FEATURES = ['committed', ...ANSWER_CONTEXT_FEATURES, ...ANSWER_TEXT_FEATURES] as const
const SEARCH_FEATURES = ['fromQuestion', 'fromEntity', 'nameOnly', 'needOnly', 'entityInEvidence', 'entityInQuestion', 'entityDocumentVisible', 'needCovered', 'needTerms', 'words', 'rank'] as const

export const MENU_LAYOUT: FeatureLayout = {
  types: ['SELECT', 'LOOKUP', 'ANSWER_WITH', 'ANSWER'],
  blocks: { SELECT: SENTENCE_FEATURES, LOOKUP: LOOKUP_FEATURES, ANSWER_WITH: SENTENCE_FEATURES, ANSWER: ANSWER_FEATURES },
}

export const SEARCH_LAYOUT: FeatureLayout = {
  types: ['SELECT', 'SEARCH', 'ANSWER_WITH', 'ANSWER'],
  blocks: { SELECT: SENTENCE_FEATURES, SEARCH: SEARCH_FEATURES, ANSWER_WITH: SENTENCE_FEATURES, ANSWER: ANSWER_FEATURES },
}

function sentenceState(observation: Observation): StateFeatures {
  const data = sentenceData(observation, 'head')
  return {
    turnsLeft: data.turnLimit > 0 ? data.turnsLeft / data.turnLimit : 0,
    lastTurn: data.turnsLeft <= 1 ? 1 : 0,
    committed: squash(data.committed.length),
    hasCommitted: data.committed.length > 0 ? 1 : 0,
  }
}

const menuCandidate = (item: MenuItem): Candidate => ({ action: { kind: 'menu', id: item.id }, type: item.type, label: item.label, features: item.features ?? {} })

export const menuCandidates: CandidateBuilder = {
  protocol: 'sentence-menu',
  layout: MENU_LAYOUT,
  state: sentenceState,
  candidates(observation, actions) {
    if (actions.kind !== 'menu') return []
    const items = withMenuContext(actions.items.filter((i) => MENU_LAYOUT.types.includes(i.type)).map(menuCandidate))
    return withTextFeatures(sentenceData(observation, 'head'), items)
  },
}

/** Most search strings offered per decision. */
export const QUERY_CANDIDATES = 8

/** The search strings a free-query decision offers, each with the features of how it was built. */
export function queryCandidates(data: SentenceEnvData, k = QUERY_CANDIDATES): Candidate[] {
  const used = usedQueryKeys(data)
  const seen = new Set<string>()
  const out: Candidate[] = []
  const questionStems = stemSet(data.question)
  const unmet = unmetTerms(data)
  const unmetStems = new Set(unmet.map((t) => t.stem))
  const committedText = data.committed.map((s) => s.text.toLowerCase()).join('\n')
  const titles = new Set([...data.visible, ...data.committed].map((s) => s.title.toLowerCase()))
  const push = (query: string, f: Partial<Record<(typeof SEARCH_FEATURES)[number], number>>): void => {
    const key = searchKey(data, query)
    if (!query.trim() || used.has(key) || seen.has(key) || out.length >= k) return
    seen.add(key)
    const stems = stemSet(query)
    const covered = [...unmetStems].filter((s) => stems.has(s)).length
    out.push({
      action: { kind: 'tool', name: SEARCH_TOOL, arguments: { query } },
      type: 'SEARCH',
      label: `search "${query}"`,
      features: { ...f, needCovered: unmetStems.size ? covered / unmetStems.size : 0, needTerms: covered, words: query.split(/\s+/).length, rank: out.length + 1 },
    })
  }
  push(data.question, { fromQuestion: 1 })
  if (unmet.length > 0) push(unmet.slice(0, 6).map((t) => t.surface).join(' '), { needOnly: 1 })
  for (const e of data.entities) {
    if (out.length >= k) break
    const stems = [...stemSet(e.name)]
    const entity = {
      fromEntity: 1,
      entityInEvidence: committedText.includes(e.name.toLowerCase()) ? 1 : 0,
      entityInQuestion: stems.length ? stems.filter((s) => questionStems.has(s)).length / stems.length : 0,
      entityDocumentVisible: titles.has(e.name.toLowerCase()) ? 1 : 0,
    }
    push(entityQuery(data, e.name), entity)
    push(e.name, { ...entity, nameOnly: 1 })
  }
  return out
}

export const searchCandidates: CandidateBuilder = {
  protocol: 'sentence-search',
  layout: SEARCH_LAYOUT,
  state: sentenceState,
  candidates(observation) {
    const data = sentenceData(observation, 'head')
    const items = data.menu.filter((i) => i.type === 'SELECT' || i.type === 'ANSWER_WITH' || i.type === 'ANSWER').map(menuCandidate)
    return [...withTextFeatures(data, withMenuContext(items)), ...queryCandidates(data)]
  },
}
