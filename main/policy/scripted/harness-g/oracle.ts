import { SEARCH_TOOL, type Policy, type PolicyDecision, type Protocol } from '../../../harness'
import type { Action, ActionSpace, EnvQuestion, MenuItem, Observation, ResolvedGold } from '../../../harness'
import type { SentenceEnvData } from '../../../harness'
import { resolveGoldIn, type GoldCatalogue, type GoldDocumentRow } from '../../../corpus/gold'
import { lookupValue } from './greedy'
import { answerDecision, addsOf, best, entityNameOf, entityQuery, feature, normalisedText, ofType, searchKey, sentenceData, sentenceOf, usedQueryKeys, queryToolOf } from './observation'

const menu = (id: string): PolicyDecision => ({ action: { kind: 'menu', id } })

/**
 * Plans an episode ahead through a twin of the environment (same question, seed and settings; the
 * environments are deterministic): the actions that commit more gold than the one-step rules below
 * would, or null when the rules already commit as much. Built above the policy layer
 * (main/experiments/factories.ts), where the environments' own transitions can be searched.
 */
export interface OraclePlanner {
  plan(question: EnvQuestion, seed: number): Promise<Action[] | null>
}

const isAvailable = (action: Action, data: SentenceEnvData): boolean =>
  action.kind !== 'menu' || data.menu.some((i) => i.id === action.id)

/**
 * What the oracle has observed in an episode (visible and committed sentences, menu targets and LOOKUP
 * previews), as a gold catalogue. A question without resolved gold (an ad-hoc one) is resolved against
 * it with the same rules as against the workspace; external ids are never shown, so names resolve by
 * title only, and gold not seen yet stays unresolved until it is.
 */
class ObservedCatalogue implements GoldCatalogue {
  private readonly titles = new Map<string, Map<number, GoldDocumentRow>>()
  private readonly sentences = new Map<string, number>()

  add(s: { id: number; documentId: number; title: string; ord: number }): void {
    let docs = this.titles.get(s.title)
    if (!docs) this.titles.set(s.title, (docs = new Map()))
    if (!docs.has(s.documentId)) docs.set(s.documentId, { id: s.documentId, title: s.title })
    this.sentences.set(`${s.documentId}:${s.ord}`, s.id)
  }

  observe(data: SentenceEnvData): void {
    for (const s of [...data.committed, ...data.visible]) this.add(s)
    for (const item of data.menu) {
      const s = sentenceOf(item)
      if (s) this.add(s)
      for (const a of addsOf(item)) this.add(a)
    }
  }

  documentsByExternalId(): GoldDocumentRow[] {
    return []
  }

  documentsByTitle(title: string): GoldDocumentRow[] {
    return [...(this.titles.get(title)?.values() ?? [])].sort((a, b) => a.id - b.id)
  }

  sentenceAt(documentId: number, ord: number): number | null {
    return this.sentences.get(`${documentId}:${ord}`) ?? null
  }
}

/**
 * Follows the gold, resolved by document and sentence id (question.gold, filled when questions are
 * loaded; for an ad-hoc question, resolved against what the episode has shown). An upper bound on what
 * the environment lets a policy reach, not a baseline.
 * - Sentence-level gold (supporting facts): commits gold sentences as soon as they are selectable
 *   (answering with the last one); otherwise fetches where the gold is: the LOOKUP whose preview holds
 *   the most gold sentences, else one named after a gold document, else one that reaches a gold
 *   document; in free query, a search for a gold document's title with the unmet question terms, then
 *   the title alone.
 * - Paragraph-level gold only (MuSiQue's is_supporting): commits, for each gold document, its selectable
 *   sentence that best matches the question (one per document), and answers once every gold document
 *   has one; fetches toward the gold documents that have none yet: the LOOKUP whose preview reaches the
 *   most of them (by document id), else one named after one, else one that reads more of the gold
 *   documents (the next hop is usually named there), else greedy's best; in free query, searches as above.
 * Gold that cannot be resolved against the workspace is never reachable, so it is not waited for;
 * gold resolved from observations may only not have been seen yet, so it is.
 *
 * One-step rules cannot see gold that only appears after several fetches through entities unrelated to
 * the question, so with a planner (and resolved gold) the oracle first follows the planned actions when
 * they commit more gold than the rules would, then the rules: it is then never below the bounded
 * search of main/experiments/ceiling.
 */
export class OraclePolicy implements Policy {
  readonly name = 'oracle'
  private question: EnvQuestion | null = null
  private seed = 0
  private observed = new ObservedCatalogue()
  /** The planned actions left (null: follow the rules); undefined until planned at the first step. */
  private planned: Action[] | null | undefined

  constructor(
    private readonly protocol: Protocol,
    private readonly planner?: OraclePlanner,
  ) {}

  reset(episode: { seed: number; question: EnvQuestion }): void {
    this.question = episode.question
    this.seed = episode.seed
    this.observed = new ObservedCatalogue()
    this.planned = undefined
  }

  async act(observation: Observation, _actions: ActionSpace): Promise<PolicyDecision> {
    const data = sentenceData(observation, this.name)
    const question = this.question
    if (!question) throw new Error(`${this.name}: reset() was not called`)
    if (this.planned === undefined) this.planned = this.planner && question.gold ? await this.planner.plan(question, this.seed) : null
    const next = this.planned?.shift()
    if (next && isAvailable(next, data)) return { action: next }
    // Off the plan (the episode diverged from the twin's) or past its end: the rules from here.
    this.planned = null
    let gold: ResolvedGold
    let final: boolean
    if (question.gold) {
      gold = question.gold
      final = true
    } else {
      this.observed.observe(data)
      gold = resolveGoldIn(this.observed, question)
      final = false
    }
    // Sentence-level gold when there is any to follow: none of it resolving against the workspace leaves the documents.
    const sentenceLevel = final ? gold.sentenceIds.length > 0 : gold.facts.length > 0
    return sentenceLevel ? this.followSentences(data, gold, final) : this.followDocuments(data, gold, final)
  }

  private followSentences(data: SentenceEnvData, gold: ResolvedGold, final: boolean): PolicyDecision {
    const goldIds = new Set(gold.sentenceIds)
    const isGold = (item: MenuItem): boolean => {
      const s = sentenceOf(item)
      return s !== undefined && goldIds.has(s.id)
    }
    const committed = new Set(data.committed.map((s) => s.id))
    // Facts still to commit; an unresolved one only while it may still turn up.
    const open = gold.facts.filter((f) => (f.sentenceId === null ? !final : !committed.has(f.sentenceId)))
    if (open.length === 0) return answerDecision(this.protocol)

    const goldSelect = ofType(data, 'SELECT').filter(isGold)
    const goldAnswer = ofType(data, 'ANSWER_WITH').filter(isGold)
    if (goldSelect.length > 0) {
      const last = open.length === 1 || data.turnsLeft <= 1
      if (last && goldAnswer[0]) return menu(goldAnswer[0].id)
      return menu(goldSelect[0]!.id)
    }
    if (data.turnsLeft <= 1) return answerDecision(this.protocol)

    // Where the open facts are: their documents (by id once resolved) and titles (for names and queries).
    const openTitles = new Set(open.map((f) => f.title))
    const titles = [...new Set(gold.facts.map((f) => f.title))].filter((t) => openTitles.has(t))
    const documents = new Set(open.map((f) => f.documentId).filter((id): id is number => id !== null))
    const fetch = queryToolOf(this.protocol) === null ? this.lookup(data, titles, documents, goldIds) : this.search(data, titles)
    return fetch ?? answerDecision(this.protocol)
  }

  private followDocuments(data: SentenceEnvData, gold: ResolvedGold, final: boolean): PolicyDecision {
    const committedDocuments = new Set(data.committed.map((s) => s.documentId))
    // Gold documents with no committed sentence yet; an unresolved one only while it may still turn up.
    const open = gold.documents.filter((d) => (d.documentId === null ? !final : !committedDocuments.has(d.documentId)))
    if (open.length === 0) return answerDecision(this.protocol)
    const openIds = new Set(open.map((d) => d.documentId).filter((id): id is number => id !== null))
    const inOpen = (item: MenuItem): boolean => {
      const s = sentenceOf(item)
      return s !== undefined && openIds.has(s.documentId)
    }
    const selects = ofType(data, 'SELECT').filter(inOpen)
    if (selects.length > 0) {
      // The first open document (in the question's order) that has a selectable sentence; its sentence
      // that best matches the question (menu order, i.e. the environment's rank, on ties).
      const target = open.find((d) => selects.some((i) => sentenceOf(i)!.documentId === d.documentId))!
      const own = (items: MenuItem[]) => items.filter((i) => sentenceOf(i)!.documentId === target.documentId)
      const chosen = best(own(selects), (i) => feature(i, 'overlap'))!
      const last = open.length === 1 || data.turnsLeft <= 1
      if (last) {
        const answers = own(ofType(data, 'ANSWER_WITH').filter(inOpen))
        const answer = answers.find((i) => sentenceOf(i)!.id === sentenceOf(chosen)!.id) ?? best(answers, (i) => feature(i, 'overlap'))
        if (answer) return menu(answer.id)
      }
      return menu(chosen.id)
    }
    if (data.turnsLeft <= 1) return answerDecision(this.protocol)
    const titles = [...new Set(open.map((d) => d.title ?? d.name))]
    if (queryToolOf(this.protocol) !== null) return this.search(data, titles) ?? answerDecision(this.protocol)
    return this.lookup(data, titles, openIds, new Set()) ?? this.bridge(data, gold) ?? answerDecision(this.protocol)
  }

  /**
   * No LOOKUP reaches or names an open gold document yet: the next hop is usually named in the gold
   * paragraphs themselves, so read more of them (the LOOKUP adding the most sentences of gold
   * documents), else explore as the greedy policy would.
   */
  private bridge(data: SentenceEnvData, gold: ResolvedGold): PolicyDecision | null {
    const lookups = ofType(data, 'LOOKUP')
    const goldDocuments = new Set(gold.documentIds)
    const inGold = (item: MenuItem) => addsOf(item).filter((a) => goldDocuments.has(a.documentId)).length
    const item = best(lookups.filter((i) => inGold(i) > 0), inGold) ?? best(lookups, lookupValue)
    return item ? menu(item.id) : null
  }

  /** The LOOKUP whose preview adds the most gold sentences, else one named after an open title, else the one reaching the most open documents. */
  private lookup(data: SentenceEnvData, titles: string[], documents: ReadonlySet<number>, goldSentences: ReadonlySet<number>): PolicyDecision | null {
    const lookups = ofType(data, 'LOOKUP')
    const goldAdds = (item: MenuItem) => addsOf(item).filter((a) => goldSentences.has(a.id)).length
    const docAdds = (item: MenuItem) => addsOf(item).filter((a) => documents.has(a.documentId)).length
    const openTitles = new Set(titles.map(normalisedText))
    const byGold = best(lookups.filter((i) => goldAdds(i) > 0), goldAdds)
    if (byGold) return menu(byGold.id)
    // Paragraph-level gold: the preview says exactly which documents a LOOKUP reaches, so that comes first.
    const byDocument = best(lookups.filter((i) => docAdds(i) > 0), docAdds)
    if (goldSentences.size === 0 && byDocument) return menu(byDocument.id)
    const named = lookups.find((i) => openTitles.has(normalisedText(entityNameOf(i))))
    if (named) return menu(named.id)
    return byDocument ? menu(byDocument.id) : null
  }

  private search(data: SentenceEnvData, titles: string[]): PolicyDecision | null {
    const used = usedQueryKeys(data)
    for (const title of titles) {
      for (const query of [entityQuery(data, title), title]) {
        if (!used.has(searchKey(data, query))) return { action: { kind: 'tool', name: SEARCH_TOOL, arguments: { query } } }
      }
    }
    return null
  }
}
