/**
 * Reward terms for training runs, registered by name. A training reward is a weighted sum of terms read
 * from the episode's metrics (computed once by scoring), so an ablation of the reward is a weight delta.
 */
export interface RewardTermDefinition {
  name: string
  label: string
  description: string
  /** Reads the term's raw value from the episode's metrics; null when the metric does not apply to this episode. */
  read(metrics: Readonly<Record<string, number | null>>, options: { normalisation: 'official' | 'graphr1' }): number | null
  /** Shown beside the weight field: a known failure mode of training on this term. */
  warning?: string
}

const terms = new Map<string, RewardTermDefinition>()

export function registerRewardTerm(term: RewardTermDefinition): void {
  if (terms.has(term.name) && terms.get(term.name) !== term) throw new Error(`Reward term "${term.name}" is already registered`)
  terms.set(term.name, term)
}

export const rewardTermNames = (): string[] => [...terms.keys()]

export function rewardTerm(name: string): RewardTermDefinition {
  const t = terms.get(name)
  if (!t) throw new Error(`Unknown reward term "${name}"; known: ${rewardTermNames().join(', ')}`)
  return t
}

export const rewardTerms = (): RewardTermDefinition[] => [...terms.values()]

const metric = (name: string) => (m: Readonly<Record<string, number | null>>) => m[name] ?? null

const RECALL_WARNING =
  'A recall reward teaches the policy to commit every sentence the turn budget allows: recall "wins" by spending more evidence. Prefer F1, or add an item cost.'

for (const t of [
  { name: 'answer.f1', label: 'Answer F1', description: 'Token F1 of the answer against the gold answers (max over aliases), under the chosen normalisation.', read: (m: Readonly<Record<string, number | null>>, o: { normalisation: string }) => m[`answer.f1.${o.normalisation}`] ?? null },
  { name: 'answer.em', label: 'Answer EM', description: 'Exact match of the normalised answer, under the chosen normalisation.', read: (m: Readonly<Record<string, number | null>>, o: { normalisation: string }) => m[`answer.em.${o.normalisation}`] ?? null },
  { name: 'sp.f1', label: 'Supporting-fact F1', description: 'F1 of the committed sentences against the gold supporting sentences.', read: metric('sp.f1') },
  { name: 'sp.recall', label: 'Supporting-fact recall', description: 'Share of gold supporting sentences committed.', read: metric('sp.recall'), warning: RECALL_WARNING },
  { name: 'sp.em', label: 'Supporting-fact EM', description: 'Exact match of the committed sentences with the gold supporting set: 1 when every gold sentence and nothing else is committed.', read: metric('sp.em') },
  {
    name: 'sp.allGold',
    label: 'All gold committed',
    description: 'A bonus of 1 when the committed sentences hold every gold supporting sentence (SP recall = 1), extra sentences allowed. Paired with F1 it keeps a precision-seeking policy from dropping the bridge sentence.',
    read: (m: Readonly<Record<string, number | null>>) => (m['sp.recall'] === null || m['sp.recall'] === undefined ? null : m['sp.recall'] === 1 ? 1 : 0),
    warning: 'Alone, like recall, it is won by committing every sentence the budget allows: weight it beside F1, not instead of it.',
  },
  { name: 'paragraph.recall', label: 'Paragraph recall', description: 'Share of gold documents with committed evidence.', read: metric('paragraph.recall'), warning: RECALL_WARNING },
  { name: 'answerer.loglik', label: 'Answerer log-likelihood', description: "The frozen answerer's mean log-probability of the gold answer given the committed evidence (lexical stand-in without a model).", read: metric('answerer.loglik') },
  { name: 'harness1', label: 'Harness-1 reward', description: "Harness-1's published reward (its own weights, editable, with the published values as the preset).", read: metric('reward.total') },
  { name: 'cost.turn', label: 'Per-turn cost', description: 'Minus the number of turns taken (weight it small, e.g. 0.02).', read: (m: Readonly<Record<string, number | null>>) => (m.turns === null || m.turns === undefined ? null : -m.turns) },
  { name: 'cost.item', label: 'Per-item cost', description: 'Minus the number of evidence items committed or curated.', read: (m: Readonly<Record<string, number | null>>) => (m['evidence.count'] === null || m['evidence.count'] === undefined ? null : -m['evidence.count']) },
] as RewardTermDefinition[]) {
  registerRewardTerm(t)
}
