export { createAnswerer, type AnswererSpec, type DisposableAnswerer } from './factory'
export { GgufAnswerer, type GgufAnswererOptions, type AnswerDetail, type AnswerScoreDetail, type AnswererStats, type ScoreItem } from './gguf-answerer'
export { LexicalAnswerer, LEXICAL_ANSWERER_NAME, answerLexically, lexicalCoverage } from './lexical-answerer'
export { candidateSpans, choiceAnswer, choiceOptions, expectedType, isYesNoQuestion, yesNoAnswer, type Span, type SpanType } from './lexical-spans'
