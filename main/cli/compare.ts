/** `compare`: runs.compare from the command line: candidates against a baseline on one metric, paired by question. */
import type { Cli } from './context'
import { formatMetric } from './table'

export function registerCompareCommands(cli: Cli): void {
  const { withApi, print } = cli
  cli.program
    .command('compare <workspaceId> <baselineRunId> <runIds...>')
    .description('paired comparison by question against a baseline run (a training run pairs by its held-out results)')
    .option('--metric <name>', 'metric to compare', 'paragraph.recall')
    .action((workspaceId: string, baseline: string, runIds: string[], o: { metric: string }) =>
      withApi(async (call) => {
        const result = await call('runs.compare', { workspaceId, baselineRunId: Number(baseline), runIds: runIds.map(Number), metric: o.metric })
        const info = (await call('harness.catalog', {})).metrics.find((m) => m.name === o.metric)
        const lines = result.comparisons.map(
          (c) =>
            `#${c.runId} vs #${baseline}  ${info?.label ?? o.metric}: ${formatMetric(c.baselineMean, info)} → ${formatMetric(c.candidateMean, info)}  diff ${formatMetric(c.meanDifference, info)}` +
            `${c.lower !== null && c.upper !== null ? ` [${formatMetric(c.lower, info)}, ${formatMetric(c.upper, info)}]` : ''}  n=${c.count}  W/T/L ${c.wins}/${c.ties}/${c.losses}${c.note ? `\n    ${c.note}` : ''}`,
        )
        print(result, lines.join('\n'))
      }),
    )
}
