/**
 * The plain layout's cues and the frozen answerer's prompt. The policies' system prompts are the
 * protocols' (main/harness/protocols.ts: systemPrompt), shared with the environment server and the SFT
 * export. The grammar enforces the format anyway, so the prompts spend their words on what a good
 * choice looks like.
 */
export const MENU_CUE = 'Action id:\n'

export const TOOLS_CUE = 'Tool call (JSON):\n'

export const ANSWER_SYSTEM_PROMPT = [
  'Answer the question using only the evidence given.',
  'Reply with the shortest answer that is correct: a name, a date, a number, or yes or no. Do not explain.',
].join('\n')

export const ANSWER_CUE = 'Answer:'

/** The user message of the answerer: numbered evidence, then the question. */
export function answerUserMessage(question: string, evidence: readonly string[]): string {
  const body = evidence.length === 0 ? '(no evidence)' : evidence.map((e, i) => `[${i + 1}] ${e}`).join('\n')
  return `Evidence:\n${body}\n\nQuestion: ${question.trim()}`
}
