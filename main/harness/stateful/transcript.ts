/**
 * The append-only transcript baseline's context: the question, then every action and its raw
 * observation in order, nothing summarised or dropped. It grows each turn; the environment ends the
 * episode ('budget') once it no longer fits. Only then is it cut, keeping the question and the newest
 * turns, so the final rendering still respects the limit.
 */
import { budgetWarning, joinedCounter, SECTION_SEPARATOR, truncateToTokens, type JoinedCounter, type TokenCounter } from './budget'
import { withMarker, type RenderResult, type RenderedSection } from './render'

export interface TranscriptEntry {
  turn: number
  /** The action as the policy sent it (a tool call as JSON, or its raw text). */
  action: string
  observation: string
}

export function renderTranscript(
  question: string,
  entries: readonly TranscriptEntry[],
  markers: boolean,
  limit: number,
  counter: TokenCounter,
  joined: JoinedCounter = joinedCounter(counter),
): RenderResult & { overflow: boolean } {
  const head: RenderedSection = { name: 'question', text: `# Question\n${question}` }
  const turns = entries.map((e): RenderedSection => ({ name: 'lastResult', text: entryText(e) }))
  const full = withMarker([head, ...turns], markers, limit, joined)
  if (full.tokens <= limit) return { ...full, limit, tokenizer: counter.name, level: 0, levelName: 'full', overflow: false }
  // Over the limit: keep the question and as many of the newest turns as fit.
  for (let drop = 1; drop <= turns.length; drop++) {
    const note: RenderedSection = { name: 'status', text: `[${drop} earlier turn${drop === 1 ? '' : 's'} cut: context full]` }
    const cut = withMarker([head, note, ...turns.slice(drop)], markers, limit, joined)
    if (cut.tokens <= limit) return { ...cut, limit, tokenizer: counter.name, level: 1, levelName: 'newest turns only', overflow: true }
  }
  const text = truncateToTokens([head, ...turns].map((s) => s.text).join(SECTION_SEPARATOR), limit, counter)
  const tokens = counter.count(text)
  return {
    text,
    tokens,
    limit,
    tokenizer: counter.name,
    level: 2,
    levelName: 'truncated',
    sections: [{ name: 'truncated', text }],
    warning: markers ? budgetWarning(tokens, limit) : null,
    overflow: true,
  }
}

function entryText(e: TranscriptEntry): string {
  return `## Turn ${e.turn}\nAction: ${e.action}\nObservation:\n${e.observation}`
}
