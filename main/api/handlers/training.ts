import { ApiError, type trainingRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { deleteTrainConfig, exportHeadWeights, latestGgufRates, listTrainConfigs, listTrainingRuns, runCreditQuality, saveTrainConfig, trainingCatalog, trainingRollouts, trainingRun } from '../../experiments/training'
import { LexicalAnswerer, SupportAnswerer } from '../../policy/answerer'
import { trainerStatus } from '../../llm/training'
import { workspaceRaw, type HandlerGroup } from './handler-group'

export function trainingHandlers(services: Services): HandlerGroup<typeof trainingRoutes> {
  const raw = workspaceRaw(services)
  const { jobs } = services
  return {
    'training.ggufTrainer': async () => trainerStatus(),
    'training.catalog': async () => trainingCatalog(),
    'training.configs.list': async ({ workspaceId }) => listTrainConfigs(await raw(workspaceId)),
    'training.configs.save': async ({ workspaceId, name, config }) => saveTrainConfig(await raw(workspaceId), name, config),
    'training.configs.delete': async ({ workspaceId, name }) => deleteTrainConfig(await raw(workspaceId), name),
    // A run still marked running whose job has ended shows the job's final status.
    'training.runs': async ({ workspaceId }) => listTrainingRuns(await raw(workspaceId), jobs.finalStatus),
    'training.run': async ({ workspaceId, runId }) => trainingRun(await raw(workspaceId), runId, jobs.finalStatus),
    'training.exportHead': async ({ workspaceId, runId, step }) => {
      try {
        return exportHeadWeights(await raw(workspaceId), runId, step) as never
      } catch (err) {
        throw new ApiError('VALIDATION', err instanceof Error ? err.message : String(err))
      }
    },
    'training.ggufRates': async ({ workspaceId, modelPath, environment, contextSize }) => latestGgufRates(await raw(workspaceId), { modelPath, environment, contextSize }),
    'training.rollouts': async ({ workspaceId, runId, step, offset, limit }) => trainingRollouts(await raw(workspaceId), runId, step, offset, limit),
    'training.creditQuality': async ({ workspaceId, runId, fromStep, toStep, scorer }) => {
      const db = await raw(workspaceId)
      trainingRun(db, runId) // a missing run is NOT_FOUND before anything is replayed
      try {
        return await runCreditQuality(db, runId, scorer === 'support' ? new SupportAnswerer() : new LexicalAnswerer(), { fromStep, toStep: toStep ?? fromStep })
      } catch (err) {
        // No rollouts in range, or a run whose environment has no menu (credit needs previews): the caller's choice.
        if (err instanceof RangeError || (err instanceof Error && /Credit needs the menu trajectory/.test(err.message))) throw new ApiError('VALIDATION', err.message)
        throw err
      }
    },
  }
}
