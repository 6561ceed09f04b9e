import { resolve } from 'node:path'

type Reporter = (path: string, held: boolean) => void

let reporter: Reporter | null = null

/** Installed by the job worker entry: model loads and releases in that thread go to the job manager. */
export function setModelHoldReporter(next: Reporter | null): void {
  reporter = next
}

/**
 * Says this thread now holds the model file at `path`; the returned function says it let go (once).
 * Outside a job worker it does nothing: the main process's models registry knows its own loads.
 * Low in the import order on purpose, so the code that loads models (policy/) can call it.
 */
export function reportModelHold(path: string): () => void {
  const report = reporter
  if (!report) return () => undefined
  const absolute = resolve(path)
  report(absolute, true)
  let released = false
  return () => {
    if (released) return
    released = true
    report(absolute, false)
  }
}
