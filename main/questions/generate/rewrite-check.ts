/**
 * The deterministic checks a model's rewrite of a generated question must pass before it replaces the
 * template. A rewrite may only change the wording: it must stay one question of sane length, leak
 * nothing the template kept back (the answer, the bridge entity), quote no gold sentence (the same
 * measure bench:questions reports), keep every document title the template names, since those
 * are the question's way in, and keep the content words of every cue ('right after the words "born
 * in"'), since those are what make its answer the only one (bridge-check.ts). The first failing check
 * is the reason the template is kept.
 */
import type { RewriteRejection } from '../../../preload/contract'
import { answerInQuestion } from '../view'
import { contentWords, goldQuoteShare, QUOTE_SHARE } from './quality'
import type { GeneratedQuestion } from './types'

export type RewriteVerdict = { ok: true; text: string } | { ok: false; reason: RewriteRejection; because: string }

/** Shortest and longest rewrite kept, in characters; longer than the template by this factor is padding. */
export const REWRITE_MIN_CHARS = 20
export const REWRITE_MAX_CHARS = 400
export const REWRITE_MAX_GROWTH = 1.5
const MIN_WORDS = 4

const fold = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()
const mentions = (text: string, phrase: string): boolean => phrase.trim() !== '' && ` ${fold(text)} `.includes(` ${fold(phrase)} `)

/** The model's line with wrapping quotes and a "Question:" label taken off (models add both). */
export function cleanRewrite(output: string): string {
  let s = output.trim().replace(/^(rewritten question|question|rewrite)\s*:\s*/i, '')
  if (/^["“'].*["”']$/s.test(s) && s.length > 2) s = s.slice(1, -1).trim()
  return s
}

/** Judges `output` as a rewrite of `q` whose gold sentences read `goldTexts`. */
export function checkRewrite(q: Pick<GeneratedQuestion, 'question' | 'answers' | 'gold' | 'form'>, goldTexts: readonly string[], output: string): RewriteVerdict {
  const text = cleanRewrite(output)
  const template = q.question
  if (text === '') return { ok: false, reason: 'empty', because: 'the model wrote nothing' }
  if (/[\r\n]/.test(text) || !text.endsWith('?') || text.indexOf('?') !== text.length - 1) {
    return { ok: false, reason: 'not-one-question', because: 'not a single question ending in "?"' }
  }
  const limit = Math.min(REWRITE_MAX_CHARS, Math.max(REWRITE_MIN_CHARS, Math.round(template.length * REWRITE_MAX_GROWTH)))
  if (text.length < REWRITE_MIN_CHARS || text.length > limit || (text.match(/[\p{L}\p{N}]+/gu) ?? []).length < MIN_WORDS) {
    return { ok: false, reason: 'length', because: `${text.length} characters (kept: ${REWRITE_MIN_CHARS}-${limit}, at least ${MIN_WORDS} words)` }
  }
  if (fold(text) === fold(template)) return { ok: false, reason: 'unchanged', because: 'the same words as the template' }
  if (answerInQuestion(text, q.answers) && !answerInQuestion(template, q.answers)) {
    return { ok: false, reason: 'contains-answer', because: `it names the answer "${q.answers[0]}"` }
  }
  const share = goldQuoteShare(text, goldTexts)
  if (share >= QUOTE_SHARE) return { ok: false, reason: 'quotes-gold', because: `it holds ${Math.round(share * 100)}% of a gold sentence's content words (limit ${Math.round(QUOTE_SHARE * 100)}%)` }
  // A bridge question describes its bridge entity instead of naming it: naming it makes it one hop.
  const bridge = q.form === 'bridge' ? q.gold[0]?.contains[0] : undefined
  if (bridge && mentions(text, bridge) && !mentions(template, bridge)) return { ok: false, reason: 'names-bridge', because: `it names the bridge entity "${bridge}"` }
  const lost = [...new Set(q.gold.map((g) => g.title))].filter((title) => mentions(template, title) && !mentions(text, title))
  if (lost.length > 0) return { ok: false, reason: 'lost-entity', because: `it drops ${lost.map((t) => `"${t}"`).join(' and ')}` }
  const kept = contentWords(text)
  const cues = [...template.matchAll(/the words "([^"]+)"/g)].map((m) => m[1]!).filter((cue) => [...contentWords(cue)].some((w) => !kept.has(w)))
  if (cues.length > 0) return { ok: false, reason: 'lost-cue', because: `it drops the words ${cues.map((c) => `"${c}"`).join(' and ')} that single out what the question asks about` }
  return { ok: true, text }
}
