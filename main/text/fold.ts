/**
 * The light plural fold shared by the lexical answerer and Harness-1's term handling, so "films" meets
 * "film": a final s goes (not from -ss or short words). With `ies`, "cities" also becomes "city" (Harness-1);
 * the answerer folds without it, and each keeps its own so their figures stay what they were measured as.
 */
export function foldPlural(word: string, options: { ies: boolean }): string {
  if (options.ies && word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word
}
