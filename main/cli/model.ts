import { GgufTrainSchema } from '../../preload/contract'
import { checkGgufFile } from '../llm/gguf-check'
import { ensureTrainerBinary, GgufTrainer, GgufTrainerUnavailableError, memoryShortfall, type TrainerBackend } from '../llm/training'
import type { Cli } from './context'

/** The contract's GGUF training defaults (the one declaration). */
const GGUF_DEFAULTS = GgufTrainSchema.parse({ modelPath: '-' })

/** The first GPU trainer that builds here (node-llama-cpp's CUDA, then Vulkan binaries), else the CPU's. */
async function gpuTrainerBackend(): Promise<TrainerBackend> {
  for (const backend of ['cuda', 'vulkan'] as const) {
    try {
      await ensureTrainerBinary({ backend })
      return backend
    } catch (err) {
      if (!(err instanceof GgufTrainerUnavailableError)) throw err
    }
  }
  return 'cpu'
}

export function registerModelCommands(cli: Cli): void {
  const { withApi, print, runJob } = cli
  const model = cli.program.command('model').description('register and inspect local GGUF models')
  model.command('list').action(() =>
    withApi(async (call) => {
      const list = await call('models.list', {})
      print(list, list.map((m) => `${m.id}  ${m.role.padEnd(9)} ${m.name}  ${m.architecture ?? '?'}  ${m.quantization ?? ''}  ${m.path}`).join('\n') || 'No models registered')
    }),
  )
  model
    .command('add <path>')
    .description('register a GGUF file (inspected, not loaded)')
    .option('--role <role>', 'policy | embedding | adapter (default: from the file)')
    .action((path: string, o: { role?: 'policy' | 'embedding' | 'adapter' }) =>
      withApi(async (call) => {
        const m = await call('models.add', { path, ...(o.role ? { role: o.role } : {}) })
        print(m, `Registered ${m.name} (${m.id}): ${m.architecture ?? '?'}, ${m.parameterCount.toLocaleString()} parameters, ${m.quantization ?? ''}, context ${m.contextLength ?? '?'}, sha256 ${m.sha256.slice(0, 12)}`)
      }),
    )
  model.command('remove <id>').action((id: string) =>
    withApi(async (call) => {
      await call('models.remove', { id })
      print({ removed: true }, 'Removed (the file is left alone)')
    }),
  )
  model
    .command('trainable <path>')
    .description('can this GGUF train its own weights here? builds the native trainer if needed, checks F32 and estimates memory')
    .option('--context <tokens>', 'training sequence length', String(GGUF_DEFAULTS.contextSize))
    .option('--last-blocks <n>', 'train output + the last N blocks only')
    .option('--optimizer <name>', 'adamw | sgd', GGUF_DEFAULTS.optimizer)
    .option('--gpu-layers <n>', 'layers offloaded to the GPU (-1: all; the memory is then checked against the GPU)', String(GGUF_DEFAULTS.gpuLayers))
    .option('--no-base', 'no frozen base beside the policy (klCoef 0 and klTarget 0)')
    .action(async (path: string, o: { context: string; lastBlocks?: string; optimizer: string; gpuLayers: string; base: boolean }) => {
      let trainer: GgufTrainer | null = null
      try {
        // The file first (header, every tensor's bytes and type, all F32), with the reason the trainer's start gives, before any trainer is built or started.
        await checkGgufFile(path, { forTraining: true })
        const gpuLayers = Number(o.gpuLayers)
        trainer = await GgufTrainer.start({ backend: gpuLayers !== 0 ? await gpuTrainerBackend() : 'cpu' })
        const estimate = await trainer.estimate({ model: path, contextSize: Number(o.context), optimizer: o.optimizer === 'sgd' ? 'sgd' : 'adamw', withBase: o.base, lastBlocks: o.lastBlocks ? Number(o.lastBlocks) : -1 })
        // the file's verdict, then whether the run's memory fits the device it would train on
        const short = estimate.trainable ? memoryShortfall(estimate, gpuLayers) : null
        const e = short ? { ...estimate, trainable: false, reason: short } : estimate
        print(e, e.trainable
          ? `Trainable: ${e.nTrainable.toLocaleString('en')} of ${e.nParams.toLocaleString('en')} parameters in ${e.nLayer} layers, context ${e.contextSize}, about ${Math.ceil(e.estimatedBytes / 2 ** 20)} MiB${o.base ? ' with the frozen base' : ''} (trainer ${trainer.binary.backend}, llama.cpp ${trainer.binary.llamaCppRelease})`
          : `Not trainable: ${e.reason}`)
        if (!e.trainable) process.exitCode = 1
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err)
        if (cli.json()) print({ trainable: false, reason }, '')
        console.error(`Not trainable: ${reason}`)
        process.exitCode = 1
      } finally {
        await trainer?.close()
      }
    })
  model
    .command('download <uri>')
    .description('download by hf: or https:// URI into the data folder and register it (needs internet)')
    .action((uri: string) =>
      withApi(async (call, services) => {
        const done = await runJob(call, services, { kind: 'model.download', params: { uri } })
        print(done, `${done.status}: ${done.error ?? done.message}`)
        if (done.status !== 'done') process.exitCode = 1
      }),
    )
}
