import type { GoldQuestion, SupportingFact } from '../../types'
import type { Rng } from '../rng'
import { mentions } from '../text'
import type { Article } from '../writers/shared'
import type { World } from '../world'
import { BRIDGE_TEMPLATES } from './bridge'
import { comparisonTemplates } from './comparison'
import type { Candidate, QuestionContext, Template } from './shared'

/** Share of bridge questions; the rest are comparisons, about two in five of them yes/no. */
const BRIDGE_SHARE = 0.66

export interface QuestionOutcome {
  questions: GoldQuestion[]
  /**
   * Candidates dropped because a supporting sentence did not say what the template expected: always a
   * writer bug, never a property of the seed. Tests require zero.
   */
  inconsistent: number
}

/**
 * Draws candidates from the templates until `target` distinct questions pass the checks (or the world
 * runs out of distinct ones). A bridge question is dropped when its answer already appears in the
 * article of the entity it names, since it would then not need the second hop.
 */
export function writeQuestions(world: World, articles: readonly Article[], rng: Rng, target: number, idPrefix: string): QuestionOutcome {
  const byEntity = new Map(articles.map((a) => [a.entityId, a] as const))
  const qc: QuestionContext = { world, rng, articles: byEntity }
  const comparisons = comparisonTemplates(world)
  const seen = new Set<string>()
  const questions: GoldQuestion[] = []
  let inconsistent = 0

  for (let attempt = 0; questions.length < target && attempt < target * 40; attempt++) {
    const family = rng.chance(BRIDGE_SHARE) ? BRIDGE_TEMPLATES : comparisons
    const template: Template = rng.weighted(family)
    const c = template(qc)
    if (!c) continue
    const key = `${c.template}|${[...c.about].sort().join(',')}`
    if (seen.has(key)) continue
    const facts = resolve(c, byEntity)
    if (facts === 'inconsistent') {
      inconsistent++
      continue
    }
    if (!facts || !acceptable(c, byEntity)) continue
    seen.add(key)
    questions.push({
      externalId: `${idPrefix}-q${String(questions.length + 1).padStart(6, '0')}`,
      question: c.question,
      answers: c.answers,
      type: c.type,
      supportingFacts: facts,
      supportingDocs: [...new Set(facts.map((f) => f.title))],
      metadata: {
        template: c.template,
        ...(c.bridge !== undefined ? { bridge: c.bridge } : {}),
        yesNo: c.answers[0] === 'yes' || c.answers[0] === 'no',
        // What each supporting sentence states, in order: the bridge entity, the answer or a compared value.
        evidence: c.support.map((s) => s.mentions),
      },
    })
  }
  return { questions, inconsistent }
}

function resolve(c: Candidate, byEntity: ReadonlyMap<string, Article>): SupportingFact[] | 'inconsistent' | null {
  const out: SupportingFact[] = []
  for (const s of c.support) {
    const article = byEntity.get(s.entityId)
    const index = article?.draft.facts.get(s.fact)
    if (!article || index === undefined) return 'inconsistent'
    const sentence = article.draft.sentences[index] ?? ''
    if (!sentence.includes(s.mentions)) return 'inconsistent'
    out.push({ title: article.title, sentence: index })
  }
  return out
}

function acceptable(c: Candidate, byEntity: ReadonlyMap<string, Article>): boolean {
  if (c.type !== 'bridge') return true
  const canonical = c.answers[0] ?? ''
  if (c.bridge !== undefined && mentions(c.question, c.bridge)) return false
  if (c.answers.some((a) => mentions(c.question, a))) return false
  const first = c.support[0] ? byEntity.get(c.support[0].entityId) : undefined
  return !first || !first.draft.sentences.some((s) => mentions(s, canonical))
}
