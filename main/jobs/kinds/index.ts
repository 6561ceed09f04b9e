import type { JobKind } from '../../../preload/contract'
import type { JobRunner } from '../protocol'
import { runMaintenance } from './maintenance'

/** Job kinds by name: the worker looks the runner up here. */
export const jobRunners: Record<JobKind, JobRunner> = {
  'db.maintenance': runMaintenance,
}
