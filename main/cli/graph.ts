/** `graph export <workspace> --out FILE`: the workspace's graph (or one node's neighbourhood) as GraphML, written where the user says. */
import { existsSync, lstatSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { exportGraphML } from '../graph/store'
import type { Cli } from './context'

export function registerGraphCommands(cli: Cli): void {
  const { withApi, print, json } = cli
  const graph = cli.program.command('graph').description('export the entity graph')
  graph
    .command('export <workspaceId>')
    .description('write the graph as GraphML (for Gephi, yEd, NetworkX)')
    .requiredOption('--out <file>', 'GraphML file to write (its folder must exist)')
    .option('--center <nodeId>', "only this node's neighbourhood (two hops), e.g. e12")
    .action((workspaceId: string, o: { out: string; center?: string }) =>
      withApi(async (_call, services) => {
        const file = resolve(o.out)
        if (!file.endsWith('.graphml')) throw new Error(`${o.out}: the file name must end in .graphml`)
        if (!existsSync(dirname(file))) throw new Error(`The folder ${dirname(file)} does not exist`)
        // As the graph.export job: never write through a symlink or over a folder.
        if (existsSync(file) && !lstatSync(file).isFile()) throw new Error(`Refused to write ${file}: it exists and is not a plain file`)
        const { raw } = await services.workspaces.handle(workspaceId)
        const r = exportGraphML(raw, file, {
          ...(o.center ? { center: o.center, depth: 2 as const } : {}),
          onProgress: (done, total, stage) => {
            if (!json()) process.stderr.write(`\r${stage}: ${done}/${total}   `)
          },
        })
        if (!json()) process.stderr.write('\r')
        print(r, `${r.nodes.toLocaleString()} nodes, ${r.edges.toLocaleString()} edges, ${(r.bytes / 2 ** 20).toFixed(1)} MiB → ${r.file}${r.truncated ? ' (neighbourhood capped)' : ''}`)
      }),
    )
}
