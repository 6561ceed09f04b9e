/**
 * Question sets as training datasets: FlashRAG / Search-R1 JSONL (`{id, question, golden_answers,
 * metadata}`, one file per split) and verl's row format (`data_source`, `prompt` as chat messages,
 * `ability`, `reward_model: {style: 'rule', ground_truth: {target}}`, `extra_info`).
 *
 * Every row carries the environment server's question key exactly as the server takes it:
 * `question_id` is the question's database id (an integer), and `set` + `split` + `index` name the
 * same question the way the server counts (see question-rows.ts). `data_source` names the underlying
 * benchmark when the set comes from one, so the trainers' default reward functions find a scorer.
 */
import type { QuestionRow } from '../question-rows'

export const VERL_ABILITY = 'multi-hop-qa'

/** Benchmarks Search-R1's and verl's rule rewards know (exact match on `<answer>` text). */
const SEARCH_R1_BENCHMARKS = ['nq', 'triviaqa', 'popqa', 'hotpotqa', '2wikimultihopqa', 'musique', 'bamboogle'] as const

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '')

/** The benchmark a set comes from: its ingest source (hotpotqa, 2wikimultihopqa, musique) or its name. Null when none is known. */
export function benchmarkOf(set: { name: string; source: string }): string | null {
  for (const candidate of [set.source, set.name]) {
    const s = slug(candidate)
    const hit = SEARCH_R1_BENCHMARKS.find((b) => s === b || s.startsWith(b))
    if (hit) return hit
  }
  return null
}

/**
 * `data_source` per flavour: Search-R1's reward dispatches on the bare benchmark name (`hotpotqa`),
 * verl's default_compute_score on `searchR1_<benchmark>`. A set from no known benchmark gets
 * `harness-lab/<set name>`, for which a custom reward function is needed.
 */
export function dataSourceOf(set: { name: string; source: string }, flavour: 'search-r1' | 'verl'): string {
  const bench = benchmarkOf(set)
  if (bench) return flavour === 'verl' ? `searchR1_${bench}` : bench
  return `harness-lab/${set.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'questions'}`
}

export type PromptVariant = 'plain' | 'search-r1'

/** The user turn: plain (the harness itself is served by the environment server), or Search-R1's convention with `<answer>` tags, which its scorer reads. */
export function datasetPrompt(question: string, variant: PromptVariant): { role: 'user'; content: string }[] {
  const q = question.trim()
  const content =
    variant === 'search-r1'
      ? 'Answer the given question. Reason inside <think> and </think> each time you get new information. ' +
        'If you lack knowledge, call a search engine with <search> query </search>; it returns the top results between <information> and </information>. ' +
        'Search as many times as you need. When you are ready, give the answer inside <answer> and </answer> with no explanation, for example <answer> Paris </answer>.\n' +
        `Question: ${q}`
      : `Answer the question by searching the document collection for evidence, then reply with the shortest correct answer.\nQuestion: ${q}`
  return [{ role: 'user', content }]
}

/** `[title, sentence index]` pairs, the index always an integer (one type per position, every row). */
const factPairs = (facts: QuestionRow['supportingFacts']): [string, number][] => facts.map((f) => [String(f.title), Math.trunc(Number(f.sentence))])

export function flashragRow(q: QuestionRow, dataSource: string) {
  return {
    id: q.externalId,
    question: q.question,
    golden_answers: q.answers,
    metadata: {
      type: q.type ?? '',
      supporting_facts: factPairs(q.supportingFacts),
      supporting_docs: q.supportingDocs,
      data_source: dataSource,
      question_id: q.rowId,
      set: q.key.set,
      split: q.key.split,
      index: q.key.index,
    },
  }
}

export interface VerlRow {
  data_source: string
  prompt: { role: 'user'; content: string }[]
  ability: string
  reward_model: { style: 'rule'; ground_truth: { target: string[] } }
  extra_info: { question_id: number; set: string; split: string | null; index: number; external_id: string }
}

export function verlRow(q: QuestionRow, dataSource: string, variant: PromptVariant): VerlRow {
  return {
    data_source: dataSource,
    prompt: datasetPrompt(q.question, variant),
    ability: VERL_ABILITY,
    reward_model: { style: 'rule', ground_truth: { target: q.answers } },
    extra_info: { question_id: q.rowId, set: q.key.set, split: q.key.split, index: q.key.index, external_id: q.externalId },
  }
}
