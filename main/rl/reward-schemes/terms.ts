/**
 * Reward terms for training runs, declared by name in one static list. A training reward is a weighted sum of terms read
 * from the episode's metrics (computed once by scoring), so an ablation of the reward is a weight delta.
 * Each term declares the gold it needs, so a reward that cannot be computed on a question set is refused
 * before a run starts instead of training on a silent zero (gold-fit.ts).
 */
import type { GoldLevel } from './gold'

export interface RewardTermDefinition {
  name: string
  label: string
  description: string
  /** The gold a question must carry for the term to be computed: null for terms every episode has (costs, turns). */
  needs: GoldLevel | null
  /** The stored per-episode metric the term follows (the run's headline metric when the term leads the reward); null for costs. */
  metric: string | null
  /** The best raw value an episode can reach (1 for rates, 0 for costs): "correct" rollouts reach half the reward's best. */
  best: number
  /** Reads the term's raw value from the episode's metrics; null when the metric does not apply to this episode. */
  read(metrics: Readonly<Record<string, number | null>>, options: { normalisation: 'official' | 'graphr1' }): number | null
  /** Shown beside the weight field: a known failure mode of training on this term. */
  warning?: string
}

type Metrics = Readonly<Record<string, number | null>>
const metric = (name: string) => (m: Metrics) => m[name] ?? null
const allOf = (recall: string) => (m: Metrics) => (m[recall] === null || m[recall] === undefined ? null : m[recall] === 1 ? 1 : 0)

const RECALL_WARNING =
  'A recall reward teaches the policy to commit every sentence the turn budget allows: recall "wins" by spending more evidence. Prefer F1, or add an item cost.'
const ALL_GOLD_WARNING = 'Alone, like recall, it is won by committing every item the budget allows: weight it beside F1, not instead of it.'

/** Every reward term, declared once: the registry below is built from this list (nothing registers at run time). */
const TERMS: readonly RewardTermDefinition[] = [
  { name: 'answer.f1', label: 'Answer F1', needs: 'answer', metric: 'answer.f1.official', best: 1, description: 'Token F1 of the answer against the gold answers (max over aliases), under the chosen normalisation.', read: (m: Metrics, o: { normalisation: string }) => m[`answer.f1.${o.normalisation}`] ?? null },
  { name: 'answer.em', label: 'Answer EM', needs: 'answer', metric: 'answer.em.official', best: 1, description: 'Exact match of the normalised answer, under the chosen normalisation.', read: (m: Metrics, o: { normalisation: string }) => m[`answer.em.${o.normalisation}`] ?? null },
  { name: 'sp.f1', label: 'Supporting-fact F1', needs: 'sentence', metric: 'sp.f1', best: 1, description: 'F1 of the committed sentences against the gold supporting sentences.', read: metric('sp.f1') },
  { name: 'sp.recall', label: 'Supporting-fact recall', needs: 'sentence', metric: 'sp.recall', best: 1, description: 'Share of gold supporting sentences committed.', read: metric('sp.recall'), warning: RECALL_WARNING },
  { name: 'sp.em', label: 'Supporting-fact EM', needs: 'sentence', metric: 'sp.em', best: 1, description: 'Exact match of the committed sentences with the gold supporting set: 1 when every gold sentence and nothing else is committed.', read: metric('sp.em') },
  {
    name: 'sp.allGold',
    label: 'All-gold bonus (sentences)',
    needs: 'sentence',
    metric: 'sp.allGold',
    best: 1,
    description: 'A bonus of 1 when the committed sentences hold every gold supporting sentence (SP recall = 1), extra sentences allowed. Paired with F1 it keeps a precision-seeking policy from dropping the bridge sentence.',
    read: allOf('sp.recall'),
    warning: ALL_GOLD_WARNING,
  },
  { name: 'paragraph.f1', label: 'Paragraph F1', needs: 'paragraph', metric: 'paragraph.f1', best: 1, description: 'F1 of the documents the evidence commits to against the gold documents (paragraph-level gold, as MuSiQue and 2Wiki give).', read: metric('paragraph.f1') },
  { name: 'paragraph.precision', label: 'Paragraph precision', needs: 'paragraph', metric: 'paragraph.precision', best: 1, description: 'Share of the documents the evidence commits to that are gold documents (0 when nothing is committed).', read: metric('paragraph.precision') },
  { name: 'paragraph.recall', label: 'Paragraph recall', needs: 'paragraph', metric: 'paragraph.recall', best: 1, description: 'Share of gold documents with committed evidence.', read: metric('paragraph.recall'), warning: RECALL_WARNING },
  {
    name: 'paragraph.allGold',
    label: 'All-gold bonus (documents)',
    needs: 'paragraph',
    metric: 'paragraph.allGold',
    best: 1,
    description: 'A bonus of 1 when the evidence covers every gold document (paragraph recall = 1), extra documents allowed. Paired with paragraph F1 it keeps the second hop worth finding.',
    read: allOf('paragraph.recall'),
    warning: ALL_GOLD_WARNING,
  },
  { name: 'answerer.loglik', label: 'Answerer likelihood', needs: 'answer', metric: 'answerer.loglik', best: 0, description: 'Rewards evidence from which the frozen answerer finds a gold answer likely (the answerer.loglik metric; 0 is best).', read: metric('answerer.loglik') },
  { name: 'harness1', label: 'Harness-1 reward', needs: 'paragraph', metric: 'harness1.curatedRecall', best: 1, description: "Harness-1's published reward (its own weights, editable, with the published values as the preset); it reads facts where the gold has them, else documents.", read: metric('reward.total') },
  { name: 'cost.turn', label: 'Per-turn cost', needs: null, metric: null, best: 0, description: 'Minus the number of turns taken (weight it small, e.g. 0.02).', read: (m: Metrics) => (m.turns === null || m.turns === undefined ? null : -m.turns) },
  { name: 'cost.item', label: 'Per-item cost', needs: null, metric: null, best: 0, description: 'Minus the number of evidence items committed or curated.', read: (m: Metrics) => (m['evidence.count'] === null || m['evidence.count'] === undefined ? null : -m['evidence.count']) },
]

const terms = new Map<string, RewardTermDefinition>()
for (const t of TERMS) {
  if (terms.has(t.name)) throw new Error(`Reward term "${t.name}" is declared twice`)
  terms.set(t.name, t)
}

export const rewardTermNames = (): string[] => [...terms.keys()]

export function rewardTerm(name: string): RewardTermDefinition {
  const t = terms.get(name)
  if (!t) throw new Error(`Unknown reward term "${name}"; known: ${rewardTermNames().join(', ')}`)
  return t
}

export const rewardTerms = (): RewardTermDefinition[] => [...TERMS]
