/**
 * Reading a question without a model: the names it mentions (runs of capitalised words, with the
 * small connectives names contain) and its relation words (the other content terms). The scripted
 * policy builds its queries and relevance scores from these.
 */
import { harness1ContentTerms as contentTerms } from '../../../harness'

const CONNECTIVES = new Set(['of', 'for', 'the', 'de', 'del', 'la', 'le', 'von', 'van', 'der', 'and', 'du', 'da', 'di', '&'])
const LEADING = new Set([
  'who', 'whom', 'whose', 'what', 'which', 'when', 'where', 'why', 'how', 'if', 'is', 'are', 'was', 'were', 'did', 'do', 'does',
  'the', 'a', 'an', 'in', 'on', 'at', 'of', 'for', 'from', 'by', 'with', 'and', 'or', 'both', 'name', 'are', 'has', 'have', 'had',
])

/**
 * Capitalised names in a text, in order of appearance, without repeats. With `sentence`, a lone
 * capitalised first word is taken for ordinary sentence case ("Organisations based in ...").
 */
export function namesIn(text: string, options: { sentence?: boolean } = {}): string[] {
  const tokens = text.split(/\s+/).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
  const raw = text.split(/\s+/)
  const out: string[] = []
  let run: string[] = []
  let runStart = 0
  // Sentence case applies to the first real word (an ellipsis or quote may come before it).
  const firstWord = Math.max(0, tokens.findIndex((t) => t !== ''))
  const flush = () => {
    while (run.length && CONNECTIVES.has(run[run.length - 1]!.toLowerCase())) run.pop()
    if (options.sentence && runStart === firstWord && run.length === 1) run = []
    if (run.length) {
      const name = run.join(' ')
      if (!out.includes(name)) out.push(name)
    }
    run = []
  }
  for (const [i, t] of tokens.entries()) {
    const capital = /^\p{Lu}/u.test(t) && !(run.length === 0 && LEADING.has(t.toLowerCase()))
    if (capital) {
      if (run.length === 0) runStart = i
      run.push(t)
    }
    else if (run.length && CONNECTIVES.has(t.toLowerCase())) run.push(t)
    else flush()
    // A name does not run across a clause break ("Kannarance, Nufoullona" are two names).
    if (run.length && /[,;:?!.)]$/.test(raw[i] ?? '')) flush()
  }
  flush()
  return out
}

export interface QuestionReading {
  names: string[]
  /** Content terms that are not part of a name ("founded", "organisation", "worked"). */
  relation: string[]
  terms: Set<string>
}

export function readQuestion(question: string): QuestionReading {
  const names = namesIn(question)
  const nameTerms = new Set(names.flatMap((n) => contentTerms(n)))
  const terms = new Set(contentTerms(question))
  return { names, relation: [...terms].filter((t) => !nameTerms.has(t)), terms }
}

/** Up to `max` distinct first-hop queries: the question's content words, each name, names with the relation. */
export function firstHopQueries(question: string, max = 5): string[] {
  const q = readQuestion(question)
  const out: string[] = []
  const push = (s: string) => {
    const t = s.trim()
    if (t && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t)
  }
  push(contentTerms(question).join(' ') || question)
  for (const n of q.names) push(n)
  for (const n of q.names) push(`${n} ${q.relation.join(' ')}`)
  return out.slice(0, max)
}
