import { dirname, join } from 'node:path'
import type { findingsRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { allClaims, findingsDetail, listFindings, saveFindings, writeFindingsReport } from '../../experiments/findings'
import { workspaceRaw, type HandlerGroup } from './handler-group'

export function findingsHandlers(services: Services): HandlerGroup<typeof findingsRoutes> {
  const raw = workspaceRaw(services)
  const { jobs } = services
  return {
    'findings.catalog': async () => allClaims().map((c) => ({ number: c.number, name: c.name, title: c.title, paper: c.paper, measure: c.measure })),
    'findings.list': async ({ workspaceId }) => listFindings(await raw(workspaceId), jobs.finalStatus),
    'findings.save': async ({ workspaceId, config }) => saveFindings(await raw(workspaceId), config),
    // A running findings run whose job has ended shows how the job ended.
    'findings.get': async ({ workspaceId, id }) => findingsDetail(await raw(workspaceId), id, jobs.finalStatus),
    'findings.export': async ({ workspaceId, id }) => {
      const db = await raw(workspaceId)
      const folder = join(dirname(await services.workspaces.databaseFile(workspaceId)), 'exports', `findings-${id}`)
      return writeFindingsReport(db, findingsDetail(db, id, jobs.finalStatus), folder)
    },
  }
}
