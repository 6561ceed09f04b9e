import type { Policy, PolicyDecision } from '../../../harness/policy'
import type { SentenceProtocol } from './observation'
import type { ActionSpace, EnvQuestion, MenuItem, Observation } from '../../../harness/types'
import type { SentenceEnvData } from '../../../harness/sentence-substrate'
import { addsOf, best, entityNameOf, entityQuery, normalisedText, ofType, searchKey, sentenceData, sentenceOf, usedQueryKeys } from './observation'

const menu = (id: string): PolicyDecision => ({ action: { kind: 'menu', id } })
const factKey = (title: string, ord: number): string => `${normalisedText(title)}\u0000${ord}`

/**
 * Follows the gold (question.supportingFacts, and supportingDocs for the documents): commits gold
 * sentences as soon as they are selectable (answering with the last one), otherwise fetches where the
 * gold is: the LOOKUP whose preview holds the most gold sentences, else one named after a gold
 * document, else one that reaches a gold document; in free query, a search for a gold document's title
 * with the unmet question terms, then the title alone. An upper bound on what the environment lets a
 * policy reach, not a baseline.
 */
export class OraclePolicy implements Policy {
  readonly name = 'oracle'
  private gold = new Set<string>()
  private goldTitles: string[] = []

  constructor(private readonly protocol: SentenceProtocol) {}

  reset(episode: { seed: number; question: EnvQuestion }): void {
    const facts = episode.question.supportingFacts
    this.gold = new Set(facts.map((f) => factKey(f.title, f.sentence)))
    this.goldTitles = [...new Set([...facts.map((f) => f.title), ...episode.question.supportingDocs])]
  }

  async act(observation: Observation, _actions: ActionSpace): Promise<PolicyDecision> {
    const data = sentenceData(observation, this.name)
    const isGold = (item: MenuItem): boolean => {
      const s = sentenceOf(item)
      return s !== undefined && this.gold.has(factKey(s.title, s.ord))
    }
    const committed = new Set(data.committed.map((s) => factKey(s.title, s.ord)))
    const remaining = [...this.gold].filter((k) => !committed.has(k)).length
    if (this.gold.size > 0 && remaining === 0) return menu('A')

    const goldSelect = ofType(data, 'SELECT').filter(isGold)
    const goldAnswer = ofType(data, 'ANSWER_WITH').filter(isGold)
    if (goldSelect.length > 0) {
      const last = remaining === 1 || data.turnsLeft <= 1
      if (last && goldAnswer[0]) return menu(goldAnswer[0].id)
      return menu(goldSelect[0]!.id)
    }
    if (data.turnsLeft <= 1) return menu('A')

    // Titles of gold documents whose gold sentences are not committed yet (all gold documents when
    // the question has documents but no sentence-level gold).
    const open = this.goldTitles.filter((t) => this.gold.size === 0 || [...this.gold].some((k) => k.startsWith(`${normalisedText(t)}\u0000`) && !committed.has(k)))
    const fetch = this.protocol === 'sentence-menu' ? this.lookup(data, open) : this.search(data, open)
    return fetch ?? menu('A')
  }

  private lookup(data: SentenceEnvData, open: string[]): PolicyDecision | null {
    const lookups = ofType(data, 'LOOKUP')
    const goldAdds = (item: MenuItem) => addsOf(item).filter((a) => this.gold.has(factKey(a.title, a.ord))).length
    const openTitles = new Set(open.map(normalisedText))
    const docAdds = (item: MenuItem) => addsOf(item).filter((a) => openTitles.has(normalisedText(a.title))).length
    const byGold = best(lookups.filter((i) => goldAdds(i) > 0), goldAdds)
    if (byGold) return menu(byGold.id)
    const named = lookups.find((i) => openTitles.has(normalisedText(entityNameOf(i))))
    if (named) return menu(named.id)
    const byDocument = best(lookups.filter((i) => docAdds(i) > 0), docAdds)
    return byDocument ? menu(byDocument.id) : null
  }

  private search(data: SentenceEnvData, open: string[]): PolicyDecision | null {
    const used = usedQueryKeys(data)
    for (const title of open) {
      for (const query of [entityQuery(data, title), title]) {
        if (!used.has(searchKey(data, query))) return { action: { kind: 'tool', name: 'search', arguments: { query } } }
      }
    }
    return null
  }
}
