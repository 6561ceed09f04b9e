/**
 * One run of `body` at a time: a call while it runs asks for one more run after it, not one each, so a
 * burst of job events costs at most two refreshes. Every caller gets the promise of the runs in flight.
 */
export function coalesce(body: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | null = null
  let again = false
  return () => {
    if (inFlight) {
      again = true
      return inFlight
    }
    inFlight = (async () => {
      try {
        do {
          again = false
          await body()
        } while (again)
      } finally {
        // a body that throws must not leave every later call waiting on the failed run
        inFlight = null
      }
    })()
    return inFlight
  }
}
