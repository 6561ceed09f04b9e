/**
 * The JSON columns of question_sets and questions, and the corpus meta row that records chunking: each
 * with its schema and codec, so every reader parses the same shape and bad stored JSON names its column.
 */
import { z } from 'zod'
import { CorpusStats, GenerationReport, ImportReport, QuestionProvenance, QuestionSplitSpec } from '../../../preload/contract'
import { jsonColumn, StringList } from '../../db/json-column'

export const SupportingFactList = z.array(z.object({ title: z.string(), sentence: z.number() }))

export const questionColumns = {
  answers: jsonColumn('questions.answers_json', StringList),
  supportingFacts: jsonColumn('questions.supporting_facts_json', SupportingFactList),
  supportingDocs: jsonColumn('questions.supporting_docs_json', StringList),
  meta: jsonColumn('questions.meta_json', QuestionProvenance),
  splitSpec: jsonColumn('question_sets.split_json', QuestionSplitSpec),
  report: jsonColumn('question_sets.report_json', ImportReport),
  /** A generated set's report shares the column: it says "kind": "generation". */
  generation: jsonColumn('question_sets.report_json', GenerationReport),
  chunking: jsonColumn("meta['chunking']", CorpusStats.shape.chunking.unwrap()),
}

/** A set's stored report, read as what it is: an import report, or a generation report. */
export function setReports(json: string | null): { report: ImportReport | null; generation: GenerationReport | null } {
  if (json === null) return { report: null, generation: null }
  return /^\s*\{\s*"kind"\s*:\s*"generation"/.test(json) ? { report: null, generation: questionColumns.generation.read(json) } : { report: questionColumns.report.read(json), generation: null }
}

/** A question row's gold, parsed: answers, supporting facts (title, sentence index) and documents. */
export function questionGold(r: { answers_json: string; supporting_facts_json: string; supporting_docs_json: string }) {
  return {
    answers: questionColumns.answers.read(r.answers_json),
    supportingFacts: questionColumns.supportingFacts.read(r.supporting_facts_json),
    supportingDocs: questionColumns.supportingDocs.read(r.supporting_docs_json),
  }
}
