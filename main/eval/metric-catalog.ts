/**
 * Every metric the app stores per episode (and aggregates per run), described once: a label that names
 * its normalisation or level where it has one, what it measures, which way is better, and how to show
 * it. The Runs, Run and Ablations pages read labels, direction and format from here (served in
 * `harness.catalog`), so a new metric needs one entry here and nothing in the renderer. A name that is
 * not listed still gets a readable description from `metricInfo` (pattern rules, then a humanised name).
 */

/** Which way is better: a higher value, a lower value, or neither (a descriptive count or a signed term). */
export type MetricDirection = 'higher' | 'lower' | 'none'

/**
 * How a value is shown: `fraction` in [0, 1] as a percentage (differences in percentage points);
 * `number` as a decimal (rewards and their terms); `count` as a whole number (a mean of counts with one
 * decimal); `ms` as a duration.
 */
export type MetricFormat = 'fraction' | 'number' | 'count' | 'ms'

export interface MetricInfo {
  /** The stored name, e.g. `answer.em.official`, `reward.turnPenalty`. */
  name: string
  /** Short column label, with the normalisation or level where the metric has one. */
  label: string
  description: string
  direction: MetricDirection
  format: MetricFormat
  /** Heading the metric is listed under (metric pickers group by it). */
  group: string
  /** Shown by default in run and episode tables; the others are a click away. */
  headline: boolean
}

export const METRIC_GROUPS = {
  answer: 'Answer',
  supportingFacts: 'Supporting facts',
  retrieval: 'Retrieved evidence',
  harness1: 'Harness-1 recall',
  reward: 'Reward (Harness-1)',
  episode: 'Episode',
  other: 'Other',
} as const

const OFFICIAL = 'official HotpotQA/2Wiki'
const GRAPHR1 = 'Graph-R1/Search-R1'
const NORMALISED = 'lower-case, punctuation and a/an/the dropped, spaces collapsed'

const m = (
  name: string,
  label: string,
  group: string,
  description: string,
  options: { direction?: MetricDirection; format?: MetricFormat; headline?: boolean } = {},
): MetricInfo => ({ name, label, description, group, direction: options.direction ?? 'higher', format: options.format ?? 'fraction', headline: options.headline ?? false })

/** The Harness-1 reward terms (`reward.<term>`: the weighted value, signed; penalties are negative). Kept in step with HARNESS1_TERMS in main/rl/rewards. */
const REWARD_TERMS: readonly [term: string, label: string, description: string][] = [
  ['curatedFBeta', 'F-beta of the curated set', 'Weight × F-beta (beta = 2 by default) of curated precision and curated recall.'],
  ['trajectoryRecall', 'Trajectory recall', 'Weight × share of the gold covered by anything the agent saw.'],
  ['answerFound', 'Answer found', 'Weight × 1 when the curated set covers at least one answer-bearing gold unit.'],
  ['answerRecall', 'Answer recall', 'Weight × share of the answer-bearing gold covered by the curated set.'],
  ['trajectoryAnswerRecall', 'Trajectory answer recall', 'Weight × share of the answer-bearing gold covered by anything seen.'],
  ['answerGap', 'Answer gap (penalty)', 'Minus weight × max(0, trajectory answer recall − answer recall): the answer was seen but not curated.'],
  ['turnPenalty', 'Turn penalty', 'Minus the turn penalty: 0 up to the start turn, rising linearly to its maximum at the end turn.'],
  ['toolDiversity', 'Tool diversity', 'w_div × min(U / target, 1), U = distinct tools used in valid calls other than end_search.'],
  ['toolShortfall', 'Tool shortfall (penalty)', 'Minus weight × max(0, target − U): too few distinct tools.'],
]

const CATALOG: readonly MetricInfo[] = [
  m('answer.em.official', `EM (${OFFICIAL})`, METRIC_GROUPS.answer, `Exact match of the normalised answer (${NORMALISED}) with any gold answer, under the ${OFFICIAL} rule.`, { headline: true }),
  m('answer.em.graphr1', `EM (${GRAPHR1})`, METRIC_GROUPS.answer, `Exact match of the normalised answer (${NORMALISED}) with any gold answer, under the ${GRAPHR1} rule (identical to the official EM).`),
  m('answer.f1.official', `F1 (${OFFICIAL})`, METRIC_GROUPS.answer, `Token F1 of the normalised answer, best over gold answers; the ${OFFICIAL} rule scores 0 when either side is yes/no/noanswer and they differ.`, { headline: true }),
  m('answer.f1.graphr1', `F1 (${GRAPHR1})`, METRIC_GROUPS.answer, `Token F1 of the normalised answer, best over gold answers, without the yes/no/noanswer rule (Graph-R1, HippoRAG, Search-R1).`, { headline: true }),

  m('sp.recall', 'SP recall', METRIC_GROUPS.supportingFacts, 'Share of the gold supporting-fact sentences among the committed evidence (set metric of the official HotpotQA script).', { headline: true }),
  m('sp.precision', 'SP precision', METRIC_GROUPS.supportingFacts, 'Share of the committed sentences that are gold supporting facts.'),
  m('sp.f1', 'SP F1', METRIC_GROUPS.supportingFacts, 'Harmonic mean of supporting-fact precision and recall.'),
  m('sp.em', 'SP EM', METRIC_GROUPS.supportingFacts, 'Committed supporting facts exactly equal the gold set (no false positive, no false negative).'),
  m('sp.allGold', 'All gold committed', METRIC_GROUPS.supportingFacts, 'Share of episodes whose committed evidence holds every gold supporting sentence (SP recall = 1), extra sentences allowed.'),
  m('evidence.count', 'Evidence items', METRIC_GROUPS.episode, 'Sentences committed (Harness-G) or documents curated (Harness-1): a gain in recall bought with more evidence is not a gain.', { direction: 'none', format: 'number' }),

  m('paragraph.recall', 'Paragraph recall (evidence)', METRIC_GROUPS.retrieval, 'Share of the gold documents covered by the committed (Harness-G) or curated (Harness-1) evidence, document level.', { headline: true }),
  m('paragraph.precision', 'Paragraph precision (evidence)', METRIC_GROUPS.retrieval, 'Share of the distinct documents the evidence commits to that are gold documents (0 when nothing is committed).'),
  m('paragraph.f1', 'Paragraph F1 (evidence)', METRIC_GROUPS.retrieval, 'Harmonic mean of paragraph precision and paragraph recall of the evidence, document level.', { headline: true }),
  m('paragraph.allGold', 'All gold documents committed', METRIC_GROUPS.retrieval, 'Share of episodes whose evidence covers every gold document (paragraph recall = 1), extra documents allowed.'),
  m('paragraph.trajectoryRecall', 'Paragraph recall (seen)', METRIC_GROUPS.retrieval, 'Share of the gold documents covered by anything the agent saw during the episode, document level.'),

  m('harness1.curatedRecall', 'Curated recall (H-1 gold level)', METRIC_GROUPS.harness1, "Share of the gold covered by the curated set, at the level Harness-1's reward resolves gold (facts where the gold has them, else documents)."),
  m('harness1.answerRecall', 'Answer recall (documents)', METRIC_GROUPS.harness1, 'Share of the answer-bearing gold documents covered by the evidence; empty when no gold document bears the answer.'),
  m('harness1.trajectoryAnswerRecall', 'Trajectory answer recall (documents)', METRIC_GROUPS.harness1, 'Share of the answer-bearing gold documents covered by anything seen.'),
  m('harness1.curatedFBeta', 'Curated F-beta (documents)', METRIC_GROUPS.harness1, 'F-beta (beta = 2) of the precision and recall of the evidence against the gold documents.'),

  m('reward.total', 'Reward (Harness-1)', METRIC_GROUPS.reward, "The Harness-1 reward with the run's weights: max(floor, sum of the terms), replaced by fixed values on a format error or an empty curated set.", { format: 'number', headline: true }),
  ...REWARD_TERMS.map(([term, label, description]) => m(`reward.${term}`, `Reward term: ${label}`, METRIC_GROUPS.reward, description, { format: 'number' })),

  m('train.reward', 'Training reward', METRIC_GROUPS.reward, "The training run's reward for a rollout: its weighted terms summed (train.reward.<term> holds each).", { format: 'number' }),
  m('answerer.loglik', 'Answerer log-likelihood', METRIC_GROUPS.answer, "The frozen answerer's mean log-probability of the gold answer given the committed evidence (lexical stand-in without a model).", { format: 'number' }),
  m('turns', 'Turns', METRIC_GROUPS.episode, 'Steps the policy took in the episode.', { direction: 'none', format: 'count', headline: true }),
  m('formatErrors', 'Format errors', METRIC_GROUPS.episode, 'Steps whose action was malformed or not offered.', { direction: 'lower', format: 'count', headline: true }),
  m('episode.ms', 'Time per episode', METRIC_GROUPS.episode, 'Wall time of the episode (policy, previews and environment), ms.', { direction: 'lower', format: 'ms' }),
  m('episode.observationTokens', 'Observation tokens (cl100k)', METRIC_GROUPS.episode, 'Tokens of every observation the policy was shown in the episode, counted with cl100k_base.', { direction: 'lower', format: 'count' }),
  m('episode.policyTokens', 'Policy output tokens', METRIC_GROUPS.episode, "Tokens the policy generated in the episode (GGUF policies; scripted policies report none).", { direction: 'lower', format: 'count' }),
]

const BY_NAME = new Map(CATALOG.map((info) => [info.name, info]))

const humanise = (s: string): string => {
  const spaced = s.replace(/[._-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').trim().toLowerCase()
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : s
}

/** Readable description of a name the catalogue does not list, from its shape. */
function fallback(name: string): MetricInfo {
  const reward = /^reward\.(.+)$/.exec(name)
  if (reward) return m(name, `Reward term: ${humanise(reward[1]!)}`, METRIC_GROUPS.reward, `Weighted reward term "${reward[1]}" (signed; penalties are negative).`, { format: 'number' })
  const answer = /^answer\.(em|f1|precision|recall)\.(.+)$/.exec(name)
  if (answer) {
    const variant = answer[2] === 'official' ? OFFICIAL : answer[2] === 'graphr1' ? GRAPHR1 : `${answer[2]} normalisation`
    return m(name, `${answer[1]!.length === 2 ? answer[1]!.toUpperCase() : humanise(answer[1]!)} (${variant})`, METRIC_GROUPS.answer, `Answer ${answer[1]} under the ${variant} rule.`)
  }
  const recall = /(recall|precision|f1|fbeta|em)$/i.test(name)
  const ms = /(^|\.)(ms|millis)$|Ms$/.test(name)
  return m(name, humanise(name), METRIC_GROUPS.other, `Stored metric "${name}" (not described in the metric catalogue).`, {
    direction: recall ? 'higher' : 'none',
    format: recall ? 'fraction' : ms ? 'ms' : 'number',
  })
}

/** Description of one metric: the catalogue's entry, or a readable fallback for a name it does not list. */
export function metricInfo(name: string): MetricInfo {
  return BY_NAME.get(name) ?? fallback(name)
}

/**
 * The catalogue in display order (grouped), plus fallback entries for `alsoNames` it does not list
 * (e.g. reward terms a newer reward scheme stores), so every stored name has a description.
 */
export function metricCatalog(alsoNames: Iterable<string> = []): MetricInfo[] {
  const out = CATALOG.map((info) => ({ ...info }))
  for (const name of alsoNames) if (!BY_NAME.has(name) && !out.some((i) => i.name === name)) out.push(fallback(name))
  return out
}
