import { dirname, join, resolve } from 'node:path'
import { mkdirSync } from 'node:fs'
import { ExportFormat, judgedMetric, QUESTION_EXPORT_FORMATS, RUN_EXPORT_FORMATS, type ExportParams } from '../../preload/contract'
import type { WorkspaceHandle } from '../corpus/repository'
import { exportFileName, exportFormats, questionSplits, writeExport } from '../exports'
import { checkOutputFile } from '../jobs/output-paths'
import { formatBytes } from '../../common'
import type { Cli } from './context'
import { aggregateTable, wallClockLine } from './table'

/** `a,b` or `all` -> format names of that source; an unknown name lists the known ones. */
function formatsOf(text: string, source: 'run' | 'questions'): ExportFormat[] {
  const known: readonly ExportFormat[] = source === 'run' ? RUN_EXPORT_FORMATS : QUESTION_EXPORT_FORMATS
  if (text === 'all') return [...known]
  return text.split(',').map((name) => {
    const f = ExportFormat.safeParse(name.trim())
    if (!f.success || !known.includes(f.data)) throw new Error(`Unknown ${source} export format "${name}": one of ${known.join(', ')}, or all`)
    return f.data
  })
}

/** `train,test` or `all` -> split labels of the set; an unknown label lists the set's. */
function splitsOf(raw: WorkspaceHandle, setId: number, text: string): string[] {
  const { labels } = questionSplits(raw, setId)
  if (labels.length === 0) throw new Error(`Question set ${setId} has no splits: leave --split out (or make splits on the Questions page, or with npm run cli -- questions split)`)
  const wanted = text === 'all' ? labels : text.split(',').map((l) => l.trim()).filter(Boolean)
  for (const l of wanted) if (!labels.includes(l)) throw new Error(`Question set ${setId} has no split "${l}"; its splits: ${labels.join(', ')}`)
  return wanted
}

export function registerRunCommands(cli: Cli): void {
  const { withApi, print, json } = cli
  const runs = cli.program.command('runs').description('list, show and export evaluation and training runs')

  runs.command('list <workspaceId>').action((workspaceId: string) =>
    withApi(async (call) => {
      const list = await call('runs.list', { workspaceId })
      const { metrics: catalogue } = await call('harness.catalog', {})
      const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}%`)
      // The evidence metric each run is judged by at its gold level: SP F1 on sentence gold, paragraph F1 on paragraph gold.
      const evidence = (r: (typeof list)[number]): string => {
        const name = judgedMetric(catalogue.filter((m) => m.level !== 'answer'), (n) => (r.metrics[n]?.mean ?? null) !== null)
        return name ? `${catalogue.find((m) => m.name === name)?.label ?? name} ${pct(r.metrics[name]?.mean)}` : 'evidence –'
      }
      const text = list.map((r) => `#${r.id}  ${r.kind.padEnd(5)} ${r.status.padEnd(9)} ${String(r.episodes).padStart(5)} ep  F1 ${pct(r.metrics['answer.f1.official']?.mean).padStart(6)}  ${evidence(r).padEnd(30)}  ${r.name}`)
      print(list, text.join('\n') || 'No runs yet: npm run cli -- eval <workspace> --env graph-menu')
    }),
  )

  runs.command('show <workspaceId> <runId>').option('--headline', 'only the headline metrics').action((workspaceId: string, runId: string, o: { headline?: boolean }) =>
    withApi(async (call) => {
      const run = (await call('runs.list', { workspaceId })).find((r) => r.id === Number(runId))
      if (!run) throw new Error(`No run #${runId} in this workspace`)
      const { metrics } = await call('harness.catalog', {})
      print(run, [`Run #${run.id} "${run.name}" (${run.kind}, ${run.status}${run.error ? `: ${run.error}` : ''}), ${run.episodes} episodes, seed ${run.seed}`, `config ${JSON.stringify(run.config)}`, ...(wallClockLine(run) ? [wallClockLine(run)] : []), '', aggregateTable(run, metrics, !o.headline)].join('\n'))
    }),
  )

  const exportAction = (source: 'run' | 'questions') => (workspaceId: string, id: string, o: { format: string; out?: string; split?: string }) =>
    withApi(async (_call, services) => {
      const formats = formatsOf(o.format, source)
      if (o.out !== undefined && formats.length > 1) throw new Error('--out names one file (or, with --split, one folder): give one --format with it, or leave --out out to write every format into the exports folder')
      const { raw } = await services.workspaces.handle(workspaceId)
      const folder = join(dirname(await services.workspaces.databaseFile(workspaceId)), 'exports')
      const splits = source === 'questions' && o.split !== undefined ? splitsOf(raw, Number(id), o.split) : [undefined]
      // With --split, --out is a folder that gets <split>.<extension> per split (verl's and Search-R1's train/test files).
      if (o.split !== undefined && o.out !== undefined) mkdirSync(resolve(o.out), { recursive: true })
      const written = []
      for (const format of formats)
      for (const split of splits) {
        const params = (source === 'run' ? { source, runId: Number(id), format } : { source, questionSetId: Number(id), format, ...(split === undefined ? {} : { split }) }) as ExportParams
        const def = exportFormats[format]
        const file = o.out === undefined ? join(folder, exportFileName(params)) : split === undefined ? resolve(o.out) : join(resolve(o.out), def.folder ? split : `${split}.${def.extension}`)
        // The exports folder is made on first use; a folder named with --out must exist already.
        if (o.out === undefined) mkdirSync(folder, { recursive: true })
        // As the API does: never through a symlink at the file or at its `.partial`.
        checkOutputFile(file)
        const r = await writeExport(raw, params, file, {
          progress: (done, total) => {
            if (!json()) process.stderr.write(`\r${exportFormats[format].label}: ${done}/${total}`)
          },
        })
        if (!json()) process.stderr.write('\r')
        written.push(r)
        if (!json()) console.log(`${exportFormats[format].label}: ${r.rows} rows, ${formatBytes(r.bytes)} → ${r.file}`)
      }
      if (json()) print(written, '')
    })

  runs
    .command('export <workspaceId> <runId>')
    .description(`write a run as files: ${RUN_EXPORT_FORMATS.join(', ')}`)
    .option('--format <names>', 'comma-separated formats, or all', 'run-results-csv')
    .option('--out <file>', "file to write (default: the workspace's exports folder)")
    .action(exportAction('run'))

  cli.program
    .command('export-questions <workspaceId> <setId>')
    .description(`write a question set as a dataset: ${QUESTION_EXPORT_FORMATS.join(', ')}`)
    .option('--format <names>', 'comma-separated formats, or all', 'questions-flashrag-jsonl')
    .option('--out <file>', "file to write (default: the workspace's exports folder); with --split a folder, one <split>.<ext> per split")
    .option('--split <labels>', 'one file per split label: comma-separated labels, or all (every label of the set)')
    .action(exportAction('questions'))
}
