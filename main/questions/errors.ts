/** A question-set operation the caller must fix: the API maps the code to its error code. */
export class QuestionSetError extends Error {
  constructor(
    readonly code: 'not-found' | 'conflict' | 'invalid',
    message: string,
  ) {
    super(message)
    this.name = 'QuestionSetError'
  }
}
