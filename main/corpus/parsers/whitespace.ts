/** Line endings unified to \n; what every parser does first so offsets and line counts agree. */
export const unifyLineEndings = (text: string): string => text.replace(/\r\n?/g, '\n')

/**
 * Light clean-up for text whose layout is the author's (plain text): trailing spaces on each line and
 * blank lines at both ends go, indentation and spacing inside lines stay.
 */
export const tidyPlainText = (text: string): string =>
  unifyLineEndings(text)
    .replace(/[ \t\f\v]+$/gm, '')
    .replace(/^\n+|\n+$/g, '')

/**
 * Clean-up for text extracted from markup (HTML, PDF, DOCX, Markdown): spaces collapse, a tab (the
 * table-cell separator the extractors emit) absorbs the spaces around it, lines are trimmed and
 * paragraphs are separated by at most one blank line.
 */
export const tidyExtractedText = (text: string): string =>
  unifyLineEndings(text)
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .replace(/[ \f\v]+/g, ' ')
    .replace(/ *\t[ \t]*/g, '\t')
    .split('\n')
    .map((line) => line.replace(/^[ \t]+|[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '')
