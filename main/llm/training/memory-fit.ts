import type { TrainerEstimate } from './protocol'

const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(bytes < 2 ** 30 ? 2 : 1)

/**
 * Why a run's estimated peak memory cannot fit the device it would train on (the largest GPU when layers are
 * offloaded and the trainer sees one, else the CPU's memory), or null when it fits. Against the device's total:
 * what other programs hold comes and goes, the device's size does not.
 */
export function memoryShortfall(estimate: TrainerEstimate, gpuLayers: number): string | null {
  const gpus = estimate.devices.filter((d) => d.type === 'gpu')
  const device = gpuLayers !== 0 && gpus.length > 0 ? gpus.reduce((a, b) => (b.totalBytes > a.totalBytes ? b : a)) : estimate.devices.find((d) => d.type === 'cpu')
  if (!device || device.totalBytes <= 0 || estimate.estimatedBytes <= device.totalBytes) return null
  return `training needs about ${gib(estimate.estimatedBytes)} GiB at a ${estimate.contextSize}-token context, but ${device.name} has ${gib(device.totalBytes)} GiB: train fewer blocks (lastBlocks), a shorter context, or with SGD`
}
