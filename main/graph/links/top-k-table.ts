/**
 * The best k (column, score) pairs of every row, in flat typed arrays: 50k entities x 5
 * neighbours is 250k slots, which objects or per-row heaps would make needlessly heavy.
 * Order: higher score first, then lower column, so the result never depends on visiting order.
 */
export class TopKTable {
  readonly cols: Int32Array
  readonly scores: Float64Array
  private readonly counts: Uint8Array

  constructor(
    readonly rows: number,
    readonly k: number,
  ) {
    if (!Number.isInteger(k) || k < 1 || k > 255) throw new RangeError(`k must be an integer from 1 to 255, got ${k}`)
    this.cols = new Int32Array(rows * k).fill(-1)
    this.scores = new Float64Array(rows * k)
    this.counts = new Uint8Array(rows)
  }

  offer(row: number, col: number, score: number): void {
    const base = row * this.k
    let n = this.counts[row]!
    if (n === this.k) {
      if (!this.before(score, col, this.scores[base + n - 1]!, this.cols[base + n - 1]!)) return
      n-- // the last slot is dropped
    } else {
      this.counts[row] = n + 1
    }
    // Insertion into a sorted run of at most k slots.
    let i = n
    while (i > 0 && this.before(score, col, this.scores[base + i - 1]!, this.cols[base + i - 1]!)) {
      this.scores[base + i] = this.scores[base + i - 1]!
      this.cols[base + i] = this.cols[base + i - 1]!
      i--
    }
    this.scores[base + i] = score
    this.cols[base + i] = col
  }

  count(row: number): number {
    return this.counts[row]!
  }

  /** Row's entries, best first. */
  entries(row: number): { col: number; score: number }[] {
    const base = row * this.k
    const out: { col: number; score: number }[] = []
    for (let i = 0; i < this.counts[row]!; i++) out.push({ col: this.cols[base + i]!, score: this.scores[base + i]! })
    return out
  }

  private before(s1: number, c1: number, s2: number, c2: number): boolean {
    return s1 > s2 || (s1 === s2 && c1 < c2)
  }
}
