/** `compare`: runs.compare from the command line: candidates against a baseline on one metric, paired by question. */
import { judgedMetric } from '../../preload/contract'
import type { Cli } from './context'
import { formatDifference, formatMetric } from './table'

export function registerCompareCommands(cli: Cli): void {
  const { withApi, print } = cli
  cli.program
    .command('compare <workspaceId> <baselineRunId> <runIds...>')
    .description('paired comparison by question against a baseline run (a training run pairs by its held-out results)')
    .option('--metric <name>', "metric to compare (default: the one training judges by at the baseline's gold level: SP F1 on sentence gold, paragraph F1 on paragraph gold)")
    .action((workspaceId: string, baseline: string, runIds: string[], o: { metric?: string }) =>
      withApi(async (call) => {
        const { metrics: catalogue } = await call('harness.catalog', {})
        const base = (await call('runs.list', { workspaceId })).find((r) => r.id === Number(baseline))
        const metric = o.metric ?? (base && judgedMetric(catalogue, (name) => (base.metrics[name]?.mean ?? null) !== null)) ?? 'answer.f1.official'
        const result = await call('runs.compare', { workspaceId, baselineRunId: Number(baseline), runIds: runIds.map(Number), metric })
        const info = catalogue.find((m) => m.name === metric)
        const lines = result.comparisons.map(
          (c) =>
            `#${c.runId} vs #${baseline}  ${info?.label ?? metric}: ${formatMetric(c.baselineMean, info)} → ${formatMetric(c.candidateMean, info)}  diff ${formatDifference(c.meanDifference, info)}` +
            `${c.lower !== null && c.upper !== null ? ` [${formatDifference(c.lower, info)}, ${formatDifference(c.upper, info)}]` : ''}  n=${c.count}  W/T/L ${c.wins}/${c.ties}/${c.losses}${c.note ? `\n    ${c.note}` : ''}`,
        )
        print(result, lines.join('\n'))
      }),
    )
}
