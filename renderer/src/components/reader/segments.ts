/** A document's text cut where the highlighted chunk and sentence begin and end, each piece marked with what covers it. */
export interface Segment {
  start: number
  end: number
  text: string
  inChunk: boolean
  inSentence: boolean
  /** The first piece of the sentence (or, without one, of the chunk): the one scrolled into view. */
  anchor: boolean
}

type Span = { start: number; end: number } | null

export function segmentsOf(text: string, chunk: Span, sentence: Span): Segment[] {
  const clamp = (n: number): number => Math.max(0, Math.min(text.length, n))
  const cuts = new Set([0, text.length])
  for (const s of [chunk, sentence]) if (s) (cuts.add(clamp(s.start)), cuts.add(clamp(s.end)))
  const sorted = [...cuts].sort((a, b) => a - b)
  const covers = (s: Span, a: number, b: number): boolean => s !== null && a >= s.start && b <= s.end
  const target = sentence ?? chunk
  const out: Segment[] = []
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [a, b] = [sorted[i]!, sorted[i + 1]!]
    if (a === b) continue
    out.push({ start: a, end: b, text: text.slice(a, b), inChunk: covers(chunk, a, b), inSentence: covers(sentence, a, b), anchor: target !== null && a === clamp(target.start) })
  }
  return out
}
