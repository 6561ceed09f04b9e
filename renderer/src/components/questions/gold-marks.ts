/**
 * The words a generated question needs from a gold sentence (its provenance's marks), wrapped in the
 * \u0001…\u0002 markers HighlightedSnippet renders as <mark>: case ignored, the longest first, never
 * overlapping. Text from the corpus stays text.
 */
export function withMarks(text: string, marks: readonly string[]): string {
  const spans: { start: number; end: number }[] = []
  const lower = text.toLowerCase()
  for (const mark of [...marks].filter((m) => m.trim() !== '').sort((a, b) => b.length - a.length)) {
    const m = mark.toLowerCase()
    for (let at = lower.indexOf(m); at >= 0; at = lower.indexOf(m, at + m.length)) {
      if (!spans.some((s) => at < s.end && s.start < at + m.length)) spans.push({ start: at, end: at + m.length })
    }
  }
  let out = ''
  let last = 0
  for (const s of spans.sort((a, b) => a.start - b.start)) {
    out += `${text.slice(last, s.start)}\u0001${text.slice(s.start, s.end)}\u0002`
    last = s.end
  }
  return out + text.slice(last)
}

/** What a gold sentence is on a generated question's path: "hop 1", "hop 2" for a bridge, "fact 1", "fact 2" for a comparison. */
export function pathLabel(type: string | null, index: number): string | null {
  if (type === 'bridge') return `hop ${index + 1}`
  if (type === 'comparison') return `fact ${index + 1}`
  return null
}
