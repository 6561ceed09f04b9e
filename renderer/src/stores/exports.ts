import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { EXPORT_EXTENSIONS, exportStem, type ExportFormatInfo, type ExportParams, type Job } from '../../../preload/contract'
import { downloadUrl, useApi } from '../api'
import { attemptInto } from './attempt'
import { useAppStore } from './app'
import { useJobsStore } from './jobs'

type ExportJob = Extract<Job, { kind: 'data.export' }>
/** What an export reads: a run or a question set. */
export type ExportTarget = { source: 'run'; runId: number } | { source: 'questions'; questionSetId: number }

const sameTarget = (params: Record<string, unknown>, t: ExportTarget): boolean =>
  params.source === t.source && (t.source === 'run' ? params.runId === t.runId : params.questionSetId === t.questionSetId)

/**
 * Exports of runs and question sets for any page (the Run page, the Questions page): the formats, the
 * `data.export` jobs of a target with their progress, and where a finished file is. In browser mode it
 * is downloaded through the token-checked route; in the desktop app the user may pick a folder first
 * (the file then lands there), else it is written to the workspace's exports folder.
 */
export const useExportsStore = defineStore('exports', () => {
  const formats = ref<ExportFormatInfo[]>([])
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  async function loadFormats(): Promise<void> {
    if (formats.value.length) return
    const out = await attempt(() => useApi().call('exports.formats', {}))
    if (out) formats.value = out
  }

  const formatsFor = (source: ExportTarget['source']) => computed(() => formats.value.filter((f) => f.source === source))

  /** The target's export jobs, newest first (read it inside a computed: it follows the live job list). */
  const jobsOf = (workspaceId: string, target: ExportTarget): ExportJob[] =>
    useJobsStore().jobs.filter((j): j is ExportJob => j.kind === 'data.export' && j.workspaceId === workspaceId && sameTarget(j.params, target))

  /** Starts the export; with `pickFolder` (desktop app) the user chooses the folder to save into first (cancelling the dialog starts nothing). */
  async function start(workspaceId: string, target: ExportTarget, format: ExportFormatInfo['name'], options: { pickFolder?: boolean } = {}): Promise<Job | undefined> {
    let path: string | undefined
    if (options.pickFolder && useAppStore().info?.nativeFolderPicker) {
      const folder = await attempt(async () => (await useApi().call('system.pickFolder', { title: 'Save the export into…' })).path)
      if (!folder) return undefined
      const info = formats.value.find((f) => f.name === format)
      const id = target.source === 'run' ? `run-${target.runId}` : `questions-${target.questionSetId}`
      // A folder format (FlashRAG: one file per split) writes into a folder of this name.
      path = `${folder.replace(/[\\/]+$/, '')}/${id}-${exportStem(format)}${info?.folder ? '' : `.${EXPORT_EXTENSIONS[format]}`}`
    }
    const params = { ...target, format, ...(path ? { path } : {}) } as ExportParams
    const job = await useJobsStore().start({ kind: 'data.export', workspaceId, params })
    error.value = useJobsStore().error
    return job
  }

  /** Browser mode: the download URL of a finished export; null in the desktop app (the file is on disk at `job.result.file`). */
  const downloadOf = (job: ExportJob): string | null => (job.status === 'done' ? downloadUrl(job.id) : null)

  return { formats, error, loadFormats, formatsFor, jobsOf, start, downloadOf }
})
