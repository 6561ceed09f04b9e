import { capQuery } from '../../../harness'
import { contentTerms, normalisedText, queryKey, stemSet, type SentenceEnvData, type SentenceRef, type SentenceView, type Term } from '../../../harness'
import { protocolDeclaration, type MenuItem, type Observation, type PolicyDecision, type Protocol } from '../../../harness'

/** The query tool where the policy writes its own queries (free query); null where it follows the menu's LOOKUPs. */
export const queryToolOf = (protocol: Protocol): string | null => protocolDeclaration(protocol).queryTool

/** The protocol's ANSWER: stop with the committed evidence. */
export const answerDecision = (protocol: Protocol): PolicyDecision => ({ action: protocolDeclaration(protocol).answer })

/** The structured observation of the sentence environments, checked enough to fail loudly on another environment's. */
export function sentenceData(observation: Observation, policy: string): SentenceEnvData {
  const data = observation.data as Partial<SentenceEnvData>
  if (!Array.isArray(data.menu) || !Array.isArray(data.visible) || typeof data.question !== 'string') {
    throw new Error(`${policy}: expects a graph-menu or free-query observation, got one from ${String(data.environment ?? 'an unknown environment')}`)
  }
  return data as SentenceEnvData
}

export const feature = (item: MenuItem, name: string): number => item.features?.[name] ?? 0

export const ofType = (data: SentenceEnvData, type: string): MenuItem[] => data.menu.filter((i) => i.type === type)

export const sentenceOf = (item: MenuItem): SentenceRef | undefined => item.target?.sentence

/** The sentences a menu item would add (SELECT / ANSWER_WITH: its sentence; LOOKUP: its preview), with their documents. */
export const addsOf = (item: MenuItem): AddedSentence[] => item.target?.adds ?? []

export interface AddedSentence {
  id: number
  documentId: number
  title: string
  ord: number
}

export const entityNameOf = (item: MenuItem): string => item.target?.entity?.name ?? ''

/** The item with the highest value, the first in menu order on ties. */
export function best<T>(items: readonly T[], value: (item: T) => number): T | undefined {
  let top: T | undefined
  let topValue = -Infinity
  for (const item of items) {
    const v = value(item)
    if (v > topValue) {
      top = item
      topValue = v
    }
  }
  return top
}

/** Question terms the committed sentences do not contain yet, as the environments compute them. */
export function unmetTerms(data: SentenceEnvData): Term[] {
  const covered = new Set<string>()
  for (const s of data.committed) for (const stem of stemSet(s.text)) covered.add(stem)
  return contentTerms(data.question).filter((t) => !covered.has(t.stem))
}

/** A query of a name and the question's unmet terms (all question terms once none or all are met). */
export function entityQuery(data: SentenceEnvData, name: string): string {
  const nameStems = stemSet(name)
  const unmet = unmetTerms(data)
  const need = (unmet.length > 0 ? unmet : contentTerms(data.question)).filter((t) => !nameStems.has(t.stem))
  return [name, ...need.slice(0, 6).map((t) => t.surface)].join(' ')
}

/** Keys of the searches made so far (free query), to avoid a blocked repeat. */
export const usedQueryKeys = (data: SentenceEnvData): Set<string> => new Set((data.queries ?? []).map(queryKey))

/** The key a search would have once the environment cuts it to its length limit. */
export const searchKey = (data: SentenceEnvData, query: string): string =>
  queryKey(data.maxQueryChars ? capQuery(query, data.maxQueryChars).query : query)

export { queryKey, normalisedText, stemSet }
export type { SentenceView }
