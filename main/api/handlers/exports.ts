import type { exportRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { exportFormatCatalog } from '../../exports'
import type { HandlerGroup } from './handler-group'

/** The formats; an export itself is a `data.export` job (job.start), so it has progress, cancel and a download. */
export function exportHandlers(_services: Services): HandlerGroup<typeof exportRoutes> {
  return {
    'exports.formats': async () => exportFormatCatalog(),
  }
}
