import { ApiError, type ImportReport, type RouteInput } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { otherLiveOwner } from '../../app/stale-exports'
import { corpusRepositories, questionColumns } from '../../corpus/repository'
import { removeUpload, stageUpload, sweepStaleUploads } from '../../questions'

/**
 * questions.import as the app, browser mode and the CLI run it: the text is staged under the data
 * folder and read by a questions.import job in a worker thread (listed in Jobs, cancellable there), so
 * this thread keeps answering other calls and signals however large the file; the call returns the
 * job's set and its full report, as it did when it parsed here.
 */
export async function importQuestionsAsJob(services: Services, input: RouteInput<'questions.import'>): Promise<{ setId: number; report: ImportReport }> {
  const { workspaceId, name, content, format, fileName } = input
  const db = (await services.workspaces.handle(workspaceId)).raw
  // Refused before 64 MiB are written anywhere (the job's preflight checks again, and the write itself once more).
  if (corpusRepositories(db).questions.setIdByName(name) !== undefined) throw new ApiError('CONFLICT', `A question set named "${name}" exists already: pick another name`)
  await sweepStaleUploads(services.dataDir, otherLiveOwner(services.dataDir))
  const upload = await stageUpload(services.dataDir, content)
  try {
    const job = await services.jobs.start('questions.import', workspaceId, { name, upload, ...(format ? { format } : {}), ...(fileName ? { fileName } : {}) })
    const end = await services.jobs.waitFor(job.id)
    if (end.status === 'cancelled') throw new ApiError('CONFLICT', `The import of "${name}" was cancelled; nothing was written`)
    if (end.status !== 'done' || end.kind !== 'questions.import' || !end.result) {
      const error = end.error ?? 'the import job ended without a result'
      throw new ApiError(/exists already/.test(error) ? 'CONFLICT' : 'INTERNAL', error)
    }
    const set = corpusRepositories(db).questions.set(end.result.setId)
    if (!set?.reportJson) throw new ApiError('INTERNAL', `Question set #${end.result.setId} was imported but its report is missing`)
    return { setId: end.result.setId, report: questionColumns.report.read(set.reportJson) }
  } finally {
    await removeUpload(services.dataDir, upload)
  }
}
