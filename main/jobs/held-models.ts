import type { JobKind } from '../../preload/contract'

/**
 * The model files each running job's worker holds, as the worker reported them. Counted per file,
 * because one job may hold a file twice (a policy and an answerer on the same model).
 */
export class HeldModels {
  private readonly byJob = new Map<string, { kind: JobKind; counts: Map<string, number> }>()

  /** Applies one report; true when the set of files the job holds changed. */
  report(jobId: string, kind: JobKind, path: string, held: boolean): boolean {
    let job = this.byJob.get(jobId)
    if (!job) {
      if (!held) return false
      job = { kind, counts: new Map() }
      this.byJob.set(jobId, job)
    }
    const before = job.counts.get(path) ?? 0
    const after = Math.max(0, before + (held ? 1 : -1))
    if (after === 0) job.counts.delete(path)
    else job.counts.set(path, after)
    if (job.counts.size === 0) this.byJob.delete(jobId)
    return (before === 0) !== (after === 0)
  }

  /** Forgets a job's holds (its thread is gone, and its memory with it); true when it held any. */
  clear(jobId: string): boolean {
    return this.byJob.delete(jobId)
  }

  pathsOf(jobId: string): string[] {
    return [...(this.byJob.get(jobId)?.counts.keys() ?? [])]
  }

  holdersOf(path: string): Array<{ jobId: string; kind: JobKind }> {
    const holders: Array<{ jobId: string; kind: JobKind }> = []
    for (const [jobId, job] of this.byJob) if (job.counts.has(path)) holders.push({ jobId, kind: job.kind })
    return holders
  }
}
