/**
 * Question sets as training datasets: FlashRAG / Search-R1 JSONL (`{id, question, golden_answers,
 * metadata}`) and verl's row format (`data_source`, `prompt` as chat messages, `ability`,
 * `reward_model: {style: 'rule', ground_truth: {target}}`, `extra_info` with the question id and split),
 * the shape Search-R1's rule reward reads.
 */
import type { QuestionRow } from '../question-rows'

export const VERL_ABILITY = 'multi-hop-qa'

/** The user turn of a verl row: the question, and what the reply should be. The harness itself is served by the environment server. */
export const verlPrompt = (question: string): { role: 'user'; content: string }[] => [
  { role: 'user', content: `Answer the question by searching the document collection for evidence, then reply with the shortest correct answer.\nQuestion: ${question.trim()}` },
]

export function flashragRow(q: QuestionRow) {
  return {
    id: q.externalId,
    question: q.question,
    golden_answers: q.answers,
    metadata: { type: q.type, supporting_facts: q.supportingFacts.map((f) => [f.title, f.sentence]), supporting_docs: q.supportingDocs, split: q.split, question_row_id: q.rowId },
  }
}

export interface VerlRow {
  data_source: string
  prompt: { role: 'user'; content: string }[]
  ability: string
  reward_model: { style: 'rule'; ground_truth: { target: string[] } }
  extra_info: { index: number; question_id: string; question_row_id: number; split: string | null }
}

export function verlRow(q: QuestionRow, index: number, dataSource: string): VerlRow {
  return {
    data_source: dataSource,
    prompt: verlPrompt(q.question),
    ability: VERL_ABILITY,
    reward_model: { style: 'rule', ground_truth: { target: q.answers } },
    extra_info: { index, question_id: q.externalId, question_row_id: q.rowId, split: q.split },
  }
}

/** `harness-lab/<set name>`, lower-case with dashes: the name verl reward functions dispatch on. */
export const dataSourceOf = (setName: string): string => `harness-lab/${setName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'questions'}`
