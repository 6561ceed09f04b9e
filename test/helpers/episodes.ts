import type { Trajectory } from '../../main/harness'

/** The environment's snapshot after reset and after every step, in order (what replay tests compare). */
export const snapshotsOf = (t: Trajectory): unknown[] => [t.initialSnapshot, ...t.steps.map((s) => s.snapshot)]
