/**
 * Passes a value on at most once per window, with a trailing edge: a value that arrives inside the window
 * is held (the newest wins) and passed on when the window ends, so the last figure of a burst is never lost.
 */
export class TrailingThrottle<T> {
  private last = 0
  private pending: { value: T } | undefined
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly windowMs: number,
    private readonly pass: (value: T) => void,
  ) {}

  push(value: T): void {
    const wait = this.windowMs - (Date.now() - this.last)
    if (wait > 0) {
      this.pending = { value }
      this.timer ??= setTimeout(() => {
        this.timer = undefined
        const held = this.pending
        this.pending = undefined
        if (held) this.push(held.value)
      }, wait)
      return
    }
    this.last = Date.now()
    this.pending = undefined
    this.pass(value)
  }

  /** Drops a held value and its timer (the job has settled). */
  cancel(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.pending = undefined
  }
}
