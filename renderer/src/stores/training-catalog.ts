import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { creditFits, protocolCapabilities, protocolTrainingDefaults, type GgufTrainerStatus, type ProtocolTrainingDefaults, type TrainingCatalog } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useCatalogStore } from './catalog'

/**
 * What a training config can name, loaded once from training.catalog: reward terms, presets, Harness-1
 * weights, credit schemes, estimators, losses with their clip options, the defaults, and the
 * environments the policy head drives. Its metric descriptions join the metric catalogue, so training
 * diagnostics get their labels and units from the same store as every other metric.
 */
export const useTrainingCatalogStore = defineStore('training-catalog', () => {
  const catalog = ref<TrainingCatalog | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  let loading: Promise<void> | null = null

  function load(): Promise<void> {
    if (catalog.value) return Promise.resolve()
    loading ??= Promise.all([useCatalogStore().load(), attempt(() => useApi().call('training.catalog', {}))]).then(([, out]) => {
      if (out) {
        useCatalogStore().addMetrics(out.metrics)
        catalog.value = out
      }
      loading = null
    })
    return loading
  }

  /** Whether GGUF weights can train here (asked once: the first ask may build the native trainer). */
  const trainer = ref<GgufTrainerStatus | null>(null)
  let asking: Promise<void> | null = null
  function loadTrainer(): Promise<void> {
    if (trainer.value) return Promise.resolve()
    asking ??= useApi()
      .call('training.ggufTrainer', {})
      .then(
        (status) => void (trainer.value = status),
        (err: unknown) => void (trainer.value = { available: false, reason: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => (asking = null))
    return asking
  }

  /** Environments the policy head can be trained in. */
  const environments = computed(() => (catalog.value?.environments ?? []).filter((e) => e.headDriven))
  const loss = (name: string) => catalog.value?.losses.find((l) => l.name === name)
  const credit = (name: string) => catalog.value?.credit.find((c) => c.name === name)
  const protocolOf = (environment: string) => catalog.value?.environments.find((e) => e.name === environment)?.protocol
  /** Whether an environment's protocol previews its actions (what credit from previews and the credit-quality report read). */
  const previews = (environment: string): boolean => {
    const protocol = protocolOf(environment)
    return protocol !== undefined && protocolCapabilities(protocol).previews
  }
  /** Whether an environment's policy writes its own queries (free query): what extractive queries apply to. */
  const writesQueries = (environment: string): boolean => {
    const protocol = protocolOf(environment)
    return protocol !== undefined && protocolCapabilities(protocol).writesQueries
  }
  /** The credit, lambda and estimator a run on the environment gets when it leaves them open: its protocol's, from the contract's one table. */
  const defaultsFor = (environment: string): ProtocolTrainingDefaults | null => {
    const protocol = protocolOf(environment)
    return protocol === undefined ? null : protocolTrainingDefaults(protocol)
  }
  /** Credit schemes an environment can use (the contract's one rule: credit that reads previews needs them). */
  const creditFor = (environment: string) => {
    const protocol = protocolOf(environment)
    return (catalog.value?.credit ?? []).filter((c) => (protocol === undefined ? !c.needsPreviews : creditFits(c, protocol)))
  }

  return { catalog, error, load, trainer, loadTrainer, environments, loss, credit, creditFor, previews, writesQueries, defaultsFor }
})
