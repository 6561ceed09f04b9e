import type { Cli } from './context'

export function registerWorkspaceCommands(cli: Cli): void {
  const { withApi, print } = cli
  const workspace = cli.program.command('workspace').description('manage workspaces')
  workspace.command('list').action(() =>
    withApi(async (call) => {
      const list = await call('workspace.list', {})
      print(list, list.length === 0 ? 'No workspaces yet. Create one: npm run cli -- workspace create NAME' : list.map((w) => `${w.id}  ${w.name}`).join('\n'))
    }),
  )
  workspace.command('create <name>').action((name: string) =>
    withApi(async (call) => {
      const w = await call('workspace.create', { name })
      print(w, `Created workspace "${w.name}" (${w.id})`)
    }),
  )
  workspace.command('rename <id> <name>').action((id: string, name: string) =>
    withApi(async (call) => {
      const w = await call('workspace.rename', { id, name })
      print(w, `Renamed to "${w.name}"`)
    }),
  )
  workspace
    .command('delete <id>')
    .requiredOption('--confirm <name>', "the workspace's exact name, to confirm")
    .action((id: string, o: { confirm: string }) =>
      withApi(async (call) => {
        await call('workspace.delete', { id, confirmName: o.confirm })
        print({ deleted: true }, 'Deleted')
      }),
    )
}
