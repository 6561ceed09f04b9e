/** Question sets for any corpus: import, hand-written questions, generation from the graph, splits. */
export { QuestionSetError } from './errors'
export { importQuestionSet, importQuestionSetAsync, type ImportInput, type ImportOutcome } from './import'
export { createQuestionSet, deleteQuestion, saveQuestion } from './edit'
export { assertSplitsNotUsed, assignSplits, checkSplit, splitQuestionSet, splitSizes, SPLIT_NAMES } from './splits'
export { answerInQuestion, questionEpisodes, questionSetDetail, searchQuestions } from './view'
export { generateCandidates, generateQuestionSet, selectGenerated, silentReporter, type GeneratedQuestion, type GenerateReporter, type GoldSentenceRef } from './generate'
export { formatOf, readRows, rowsOf, type RowFormat } from './read-rows'
