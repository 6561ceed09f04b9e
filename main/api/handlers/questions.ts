import { ApiError, type questionRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { createQuestionSet, deleteQuestion, questionEpisodes, questionSetDetail, QuestionSetError, saveQuestion, searchQuestions, splitQuestionSet } from '../../questions'
import { splitUsage } from '../../experiments/runs/split-usage-store'
import { workspaceRaw, type HandlerGroup } from './handler-group'
import { importQuestionsAsJob } from './question-import'

/** Question-set errors are the caller's to fix: they become API errors with their code. */
function asApi<T>(fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    throw apiErrorOf(err)
  }
}

const apiErrorOf = (err: unknown): unknown =>
  err instanceof QuestionSetError ? new ApiError(err.code === 'not-found' ? 'NOT_FOUND' : err.code === 'conflict' ? 'CONFLICT' : 'VALIDATION', err.message) : err

export function questionHandlers(services: Services): HandlerGroup<typeof questionRoutes> {
  const raw = workspaceRaw(services)
  return {
    'questions.set': async ({ workspaceId, setId }) => {
      const db = await raw(workspaceId)
      return asApi(() => questionSetDetail(db, splitUsage(db), setId))
    },
    'questions.search': async ({ workspaceId, setId, filter, offset, limit }) => {
      const db = await raw(workspaceId)
      return asApi(() => searchQuestions(db, setId, filter, offset, limit))
    },
    // A job in a worker thread: a large file leaves this thread answering other calls while it is read.
    'questions.import': async (input) => importQuestionsAsJob(services, input),
    'questions.createSet': async ({ workspaceId, name }) => {
      const db = await raw(workspaceId)
      return { setId: asApi(() => createQuestionSet(db, name)) }
    },
    'questions.save': async ({ workspaceId, setId, questionId, edit }) => {
      const db = await raw(workspaceId)
      return asApi(() => saveQuestion(db, setId, questionId, edit))
    },
    'questions.delete': async ({ workspaceId, setId, questionId }) => {
      const db = await raw(workspaceId)
      return { deleted: asApi(() => deleteQuestion(db, splitUsage(db), setId, questionId)) }
    },
    'questions.split': async ({ workspaceId, setId, spec }) => {
      const db = await raw(workspaceId)
      return asApi(() => {
        splitQuestionSet(db, splitUsage(db), setId, spec)
        return questionSetDetail(db, splitUsage(db), setId)
      })
    },
    'questions.episodes': async ({ workspaceId, questionId, limit }) => questionEpisodes(splitUsage(await raw(workspaceId)), questionId, limit),
  }
}
