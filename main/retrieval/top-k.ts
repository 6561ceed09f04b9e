/**
 * Keeps the `capacity` highest-scoring ids seen so far in a binary min-heap, so a scan over n vectors
 * costs O(n log capacity) instead of sorting all n scores.
 */
export class TopK {
  private readonly scores: Float64Array
  private readonly ids: Float64Array
  private size = 0

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(Math.max(capacity, 0))
    this.ids = new Float64Array(Math.max(capacity, 0))
  }

  /** Lowest score that would still be admitted once full; lets a scan skip work early. */
  get threshold(): number {
    return this.size < this.capacity ? -Infinity : this.scores[0]!
  }

  push(id: number, score: number): void {
    if (this.capacity === 0) return
    if (this.size < this.capacity) {
      let i = this.size++
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!this.before(score, id, this.scores[parent]!, this.ids[parent]!)) break
        this.scores[i] = this.scores[parent]!
        this.ids[i] = this.ids[parent]!
        i = parent
      }
      this.scores[i] = score
      this.ids[i] = id
      return
    }
    if (!this.before(this.scores[0]!, this.ids[0]!, score, id)) return
    this.siftDown(score, id)
  }

  /** Best first; equal scores in ascending id order so results are deterministic. */
  sorted(): { id: number; score: number }[] {
    const out: { id: number; score: number }[] = []
    for (let i = 0; i < this.size; i++) out.push({ id: this.ids[i]!, score: this.scores[i]! })
    return out.sort((a, b) => b.score - a.score || a.id - b.id)
  }

  // Heap order: the root is the entry that ranks last (lowest score, then highest id).
  private before(scoreA: number, idA: number, scoreB: number, idB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && idA > idB)
  }

  private siftDown(score: number, id: number): void {
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= this.size) break
      const right = left + 1
      let child = left
      if (right < this.size && this.before(this.scores[right]!, this.ids[right]!, this.scores[left]!, this.ids[left]!)) child = right
      if (!this.before(this.scores[child]!, this.ids[child]!, score, id)) break
      this.scores[i] = this.scores[child]!
      this.ids[i] = this.ids[child]!
      i = child
    }
    this.scores[i] = score
    this.ids[i] = id
  }
}
