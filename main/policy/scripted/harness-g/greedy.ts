import { SEARCH_TOOL, type Policy, type PolicyDecision, type Protocol } from '../../../harness'
import type { ActionSpace, MenuItem, Observation } from '../../../harness'
import type { SentenceEnvData } from '../../../harness'
import { answerDecision, best, entityQuery, feature, normalisedText, ofType, searchKey, sentenceData, stemSet, usedQueryKeys, queryToolOf } from './observation'

const menu = (id: string): PolicyDecision => ({ action: { kind: 'menu', id } })
const search = (query: string): PolicyDecision => ({ action: { kind: 'tool', name: SEARCH_TOOL, arguments: { query } } })

/** How promising a LOOKUP looks from its features: unmet need in its preview, bridges over names already read. */
export const lookupValue = (item: MenuItem): number =>
  feature(item, 'previewNeed') +
  0.5 * feature(item, 'inEvidence') +
  0.25 * feature(item, 'previewOverlap') +
  0.25 * (feature(item, 'newFocus') / Math.max(1, feature(item, 'newSentences'))) -
  0.5 * feature(item, 'documentVisible')

/**
 * Commits the visible sentence that covers the most unmet question terms while one covers any;
 * otherwise fetches more (the best LOOKUP by its preview, or in free query a search with the
 * question, then with the most promising entity name and the unmet terms); answers when nothing is
 * left to gain or on the last turn (with its best sentence if that still covers something).
 */
export class GreedyPolicy implements Policy {
  readonly name: string

  /** `searchFirst`: in free query, search with the question before anything else, whatever is visible. */
  constructor(
    private readonly protocol: Protocol,
    private readonly options: { searchFirst?: boolean } = {},
  ) {
    this.name = options.searchFirst ? 'search-first' : 'greedy'
  }

  reset(): void {}

  async act(observation: Observation, _actions: ActionSpace): Promise<PolicyDecision> {
    const data = sentenceData(observation, this.name)
    const select = ofType(data, 'SELECT')[0]
    const answerWith = ofType(data, 'ANSWER_WITH')[0]
    if (data.turnsLeft <= 1) {
      return answerWith && (feature(answerWith, 'need') > 0 || data.committed.length === 0) ? menu(answerWith.id) : answerDecision(this.protocol)
    }
    if (this.options.searchFirst && queryToolOf(this.protocol) !== null && !(data.queries ?? []).length) return search(data.question)
    if (select && feature(select, 'need') > 0) return menu(select.id)
    const more = queryToolOf(this.protocol) === null ? this.lookup(data) : this.search(data)
    return more ?? answerDecision(this.protocol)
  }

  private lookup(data: SentenceEnvData): PolicyDecision | null {
    const item = best(ofType(data, 'LOOKUP'), lookupValue)
    return item ? menu(item.id) : null
  }

  private search(data: SentenceEnvData): PolicyDecision | null {
    const used = usedQueryKeys(data)
    if (!used.has(searchKey(data, data.question))) return search(data.question)
    const questionStems = stemSet(data.question)
    const committedText = data.committed.map((s) => s.text.toLowerCase()).join('\n')
    const titles = new Set([...data.visible, ...data.committed].map((s) => normalisedText(s.title)))
    const searched = (data.queries ?? []).map((q) => q.toLowerCase())
    const candidates = data.entities
      .filter((e) => !searched.some((q) => q.includes(e.name.toLowerCase())))
      .map((e) => {
        const stems = [...stemSet(e.name)]
        const inQuestion = stems.length ? stems.filter((s) => questionStems.has(s)).length / stems.length : 0
        const documentVisible = titles.has(normalisedText(e.name)) ? 1 : 0
        const inEvidence = committedText.includes(e.name.toLowerCase()) ? 1 : 0
        return { e, value: 1.5 * inEvidence + inQuestion * (1 - documentVisible) - 0.5 * documentVisible }
      })
    for (const { e } of [...candidates].sort((a, b) => b.value - a.value || a.e.handle - b.e.handle)) {
      const query = entityQuery(data, e.name)
      if (!used.has(searchKey(data, query))) return search(query)
    }
    return null
  }
}
