import type { Cli } from './context'

export function registerJobCommands(cli: Cli): void {
  const { withApi, print, runJob } = cli
  const job = cli.program.command('job').description('run and inspect jobs')
  job
    .command('maintenance <workspaceId>')
    .description('integrity check and vacuum of a workspace database; waits for it and prints progress')
    .option('--no-vacuum', 'skip VACUUM')
    .action((workspaceId: string, o: { vacuum: boolean }) =>
      withApi(async (call, services) => {
        const done = await runJob(call, services, { kind: 'db.maintenance', workspaceId, params: { vacuum: o.vacuum } })
        print(done, `${done.status}: ${done.error ?? done.message}`)
        if (done.status !== 'done') process.exitCode = 1
      }),
    )
  job.command('list').option('-w, --workspace <id>').action((o: { workspace?: string }) =>
    withApi(async (call) => {
      const jobs = await call('job.list', { workspaceId: o.workspace, limit: 50 })
      print(jobs, jobs.map((j) => `${j.id}  ${j.kind}  ${j.status}  ${(j.progress * 100).toFixed(0)}%  ${j.error ?? j.message}`).join('\n') || 'No jobs')
    }),
  )
}
