import { PolicyError } from '../../llm/errors'
import type { RenderedPrompt } from './chat-prompt'

export interface FittedPrompt {
  prompt: RenderedPrompt
  /** Characters of the body cut from its middle to fit (0 when it fit as is). */
  cutChars: number
}

/** Text with its middle replaced by a marker so that at most `keep` characters of it remain. */
export function cutMiddle(text: string, keep: number): string {
  if (text.length <= keep) return text
  const head = Math.ceil(keep * 0.6)
  const tail = Math.max(0, keep - head)
  const omitted = text.length - head - tail
  return `${text.slice(0, head)}\n[... ${omitted} characters omitted to fit the context ...]\n${text.slice(text.length - tail)}`
}

/**
 * Renders `body` through `render` and, when the tokens exceed `maxTokens`, cuts characters from the
 * middle of the body until they fit. The head of an observation carries the question and the tail
 * carries the menu or the budget marker, so the middle is what a policy can best do without; the cut
 * is reported so that a run can count it.
 */
export function fitBody(body: string, maxTokens: number, render: (body: string) => RenderedPrompt): FittedPrompt {
  let prompt = render(body)
  if (prompt.tokens.length <= maxTokens) return { prompt, cutChars: 0 }
  const overhead = render('').tokens.length
  if (overhead >= maxTokens) {
    throw new PolicyError('invalid-input', `the prompt without any observation takes ${overhead} tokens, more than the ${maxTokens} available: raise the context size`)
  }
  let keep = body.length
  for (let attempt = 0; attempt < 8; attempt++) {
    const ratio = (maxTokens - overhead) / Math.max(1, prompt.tokens.length - overhead)
    keep = Math.max(0, Math.floor(Math.min(keep - 1, keep * ratio * 0.97)))
    prompt = render(cutMiddle(body, keep))
    if (prompt.tokens.length <= maxTokens) return { prompt, cutChars: body.length - keep }
  }
  prompt = render('')
  return { prompt, cutChars: body.length }
}
