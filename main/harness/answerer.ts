/** Turns committed evidence into an answer (for EM/F1) and scores evidence sets (for credit). */

export interface Answerer {
  /** Shown with every result: a model file and hash, or "lexical stand-in". */
  readonly name: string
  /** True for the model-free stand-in, so results can be labelled. */
  readonly lexical: boolean
  /** A short answer from the question and evidence sentences. */
  answer(question: string, evidence: string[]): Promise<string>
  /** Mean log-probability of `answer` given question + evidence (higher is better). */
  score(question: string, evidence: string[], answer: string): Promise<number>
}
