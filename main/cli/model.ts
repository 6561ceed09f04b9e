import type { Cli } from './context'

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
