import { jobKinds, type JobKind } from '../../preload/contract'

export interface PlannedJob {
  id: string
  kind: JobKind
  workspaceId: string | null
  /** Whether this process may start it (its own job, or one it adopted). */
  ours: boolean
  /** The pid of the other process that runs or queued it, when not this one (named in reasons). */
  elsewhere?: number | null
}

export interface QueuePlace {
  position: number
  waitingFor: string
}

export interface QueuePlan {
  /** Queued jobs to start now, in queue order. */
  start: PlannedJob[]
  /** Every job left queued, by id: its 1-based place among them and what it waits for. */
  places: Map<string, QueuePlace>
}

/** Whether two jobs may not run at the same time, from their kinds' declared exclusivity. */
export function conflicts(a: Pick<PlannedJob, 'kind' | 'workspaceId'>, b: Pick<PlannedJob, 'kind' | 'workspaceId'>): boolean {
  if (a.workspaceId === null || a.workspaceId !== b.workspaceId) return false
  const ea = jobKinds[a.kind]?.exclusive
  const eb = jobKinds[b.kind]?.exclusive
  if (ea === 'workspace' || eb === 'workspace') return true
  if (ea === undefined || eb === undefined || ea.lock !== eb.lock) return false
  // Readers of one lock share it; a writer excludes everyone holding it.
  return !(ea.shared === true && eb.shared === true)
}

/** Why `job` may not run beside `other` (they conflict), in words for the queue reason. */
function conflictReason(job: PlannedJob, other: PlannedJob): string {
  const own = jobKinds[job.kind]?.exclusive
  const theirs = jobKinds[other.kind]?.exclusive
  const lock = typeof own === 'object' ? own : typeof theirs === 'object' ? theirs : undefined
  return lock && own !== 'workspace' && theirs !== 'workspace' ? `: ${lock.why}` : ''
}

const where = (job: PlannedJob): string => (job.elsewhere ? ` (process ${job.elsewhere})` : '')

/**
 * Which queued jobs start now. First come, first served: a job starts when a slot is free and it
 * conflicts neither with a running job nor with an earlier job still waiting (so a VACUUM queued
 * behind running evaluations is not overtaken by later ones). Brief kinds neither wait for nor take a slot. `running` counts every process's
 * running jobs, so the limit and the exclusivity hold for the whole data folder. Another process's
 * queued job that could start keeps its slot and its place for that process (which starts it at its
 * next look at the database), so a later job of this process does not overtake it.
 */
export function planQueue(running: PlannedJob[], queued: PlannedJob[], limit: number): QueuePlan {
  const active = [...running]
  const waiting: PlannedJob[] = []
  const start: PlannedJob[] = []
  const places = new Map<string, QueuePlace>()
  for (const job of queued) {
    const busy = active.find((r) => conflicts(job, r))
    const ahead = waiting.find((w) => conflicts(job, w))
    const slots = active.filter((r) => jobKinds[r.kind]?.brief !== true).length
    const startable = !busy && !ahead && (jobKinds[job.kind]?.brief === true || slots < limit)
    if (startable && job.ours) {
      active.push(job)
      start.push(job)
      continue
    }
    // Held for its own process: it takes its slot now, as it will in a moment.
    if (startable) active.push(job)
    else waiting.push(job)
    const waitingFor = busy
      ? `${busy.kind} running in this workspace${where(busy)}${conflictReason(job, busy)}`
      : ahead
        ? `${ahead.kind} queued before it in this workspace${where(ahead)}${conflictReason(job, ahead)}`
        : !job.ours
          ? 'the process that queued it'
          : `a free slot (${slots} of ${limit} running)`
    places.set(job.id, { position: places.size + 1, waitingFor })
  }
  return { start, places }
}

/** The default number of jobs run at once: one core is left to the app (at least one job). */
export function defaultJobLimit(cores: number): number {
  return Math.max(1, Math.floor(cores) - 1)
}

/** The job limit from HARNESS_LAB_JOBS, when set; a value that is not a whole number >= 1 is an error that says so. */
export function jobLimitFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error(`HARNESS_LAB_JOBS must be a whole number from 1 to 256 (jobs run at once), not "${value}"`)
  return n
}
