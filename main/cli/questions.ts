/** `questions import|generate|split|list`: question sets for any corpus, over the same routes the Questions page uses. */
import { readFileSync, statSync } from 'node:fs'
import type { GenerationReport, ImportReport, QuestionSplitSpec } from '../../preload/contract'
import type { Cli } from './context'

const MAX_BYTES = 64 * 1024 * 1024

function readText(path: string): string {
  let size: number
  try {
    size = statSync(path).size
  } catch {
    throw new Error(`No question file at ${path}`)
  }
  if (size > MAX_BYTES) throw new Error(`${path} is ${(size / 2 ** 20).toFixed(1)} MiB; question files are limited to 64 MiB`)
  return readFileSync(path, 'utf8')
}

/** "no-cue 385, answer-not-unique 14" for one kind, or "none". */
const droppedLine = (dropped: GenerationReport['dropped'], kind: string): string =>
  Object.entries(dropped)
    .filter(([, by]) => (by?.[kind] ?? 0) > 0)
    .map(([reason, by]) => `${reason} ${by![kind]}`)
    .join(', ') || 'none'

const reportLines = (r: ImportReport): string[] => [
  `${r.imported} of ${r.rows} rows imported (${r.format}); ${r.badRows.length} bad rows, ${r.unresolved.length} unresolved gold items`,
  ...r.badRows.map((b) => `  line ${b.line}: bad row: ${b.reason}`),
  ...r.unresolved.map((u) => `  line ${u.line}: unresolved${u.item ? ` ${u.item}` : ''}: ${u.reason}`),
]

export function registerQuestionCommands(cli: Cli): void {
  const { withApi, print, runJob } = cli
  const questions = cli.program.command('questions').description('import, generate, split and list question sets')

  questions
    .command('import <workspaceId> <file>')
    .description('import a question set from JSONL, JSON or CSV; gold is resolved against the corpus and problems are listed by line')
    .requiredOption('--name <name>', 'name of the new set')
    .option('--format <format>', 'jsonl | json | csv (default: from the extension)')
    .action((workspaceId: string, file: string, o: { name: string; format?: 'jsonl' | 'json' | 'csv' }) =>
      withApi(async (call) => {
        const r = await call('questions.import', { workspaceId, name: o.name, content: readText(file), fileName: file, ...(o.format ? { format: o.format } : {}) })
        print(r, [`Question set #${r.setId} "${o.name}"`, ...reportLines(r.report)].join('\n'))
      }),
    )

  questions
    .command('generate <workspaceId>')
    .description('generate bridge and comparison questions from the corpus graph, deterministic by seed, optionally rewritten through a GGUF model')
    .requiredOption('--name <name>', 'name of the new set')
    .option('--seed <n>', 'seed', '1')
    .option('--kinds <kinds>', 'bridge,comparison', 'bridge,comparison')
    .option('--max <n>', 'most questions of each kind', '500')
    .option('--keep-answer-in-question', 'also keep questions whose answer occurs in the question')
    .option('--rewrite-model <path>', 'rewrite each kept question through this GGUF (each rewrite checked; a refused one keeps the template)')
    .option('--rewrite-max <n>', 'most questions sent to the rewrite model', '200')
    .action((workspaceId: string, o: { name: string; seed: string; kinds: string; max: string; keepAnswerInQuestion?: boolean; rewriteModel?: string; rewriteMax: string }) =>
      withApi(async (call, services) => {
        const kinds = o.kinds.split(',').map((k) => k.trim()) as ('bridge' | 'comparison')[]
        const done = await runJob(call, services, { kind: 'questions.generate', workspaceId, params: { name: o.name, seed: Number(o.seed), kinds, maxPerKind: Number(o.max), answerNotInQuestion: !o.keepAnswerInQuestion, rewrite: o.rewriteModel ? { modelPath: o.rewriteModel, maxQuestions: Number(o.rewriteMax) } : null } })
        const r = done.kind === 'questions.generate' ? done.result : null
        const lines = r
          ? [`Question set #${r.setId} "${o.name}" in ${r.seconds.toFixed(1)} s`, ...Object.keys(r.candidates).map((k) => `  ${k.padEnd(11)} kept ${r.kept[k] ?? 0}  candidates ${r.candidates[k]}  answer in question ${r.answerInQuestion[k] ?? 0}  dropped: ${droppedLine(r.dropped, k)}`), ...(r.rewrite ? [`  rewritten by ${r.rewrite.model}: ${r.rewrite.accepted} accepted, rejected ${JSON.stringify(r.rewrite.rejected)}, ${r.rewrite.overBudget} over budget (${r.rewrite.questionsPerSecond.toFixed(1)} questions/s)`] : [])]
          : [`${done.status}: ${done.error ?? done.message}`]
        print(done, lines.join('\n'))
        if (done.status !== 'done') process.exitCode = 1
      }),
    )

  questions
    .command('split <workspaceId> <setId>')
    .description('draw train/dev/test splits by seed and ratio, or by a field of the imported rows (refused once a run used them)')
    .option('--seed <n>', 'seed', '1')
    .option('--ratio <train:dev:test>', 'relative sizes', '8:1:1')
    .option('--field <name>', 'split by this field instead (e.g. split)')
    .action((workspaceId: string, setId: string, o: { seed: string; ratio: string; field?: string }) =>
      withApi(async (call) => {
        let spec: QuestionSplitSpec
        if (o.field) spec = { method: 'field', field: o.field }
        else {
          const parts = o.ratio.split(':').map(Number)
          if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x))) throw new Error(`--ratio is train:dev:test, e.g. 8:1:1 (got ${o.ratio})`)
          spec = { method: 'ratio', seed: Number(o.seed), ratios: { train: parts[0]!, dev: parts[1]!, test: parts[2]! } }
        }
        const d = await call('questions.split', { workspaceId, setId: Number(setId), spec })
        print(d, [`Question set #${d.id} "${d.name}": ${d.splits.map((s) => `${s.name} ${s.count}`).join(', ')}${d.unassigned ? `, unassigned ${d.unassigned}` : ''}`].join('\n'))
      }),
    )

  questions
    .command('list <workspaceId> [setId]')
    .description('list question sets, or the questions of one set (with their split and gold)')
    .option('--split <name>', 'only this split')
    .option('--text <text>', 'only questions containing this text')
    .option('--limit <n>', 'questions to show', '20')
    .action((workspaceId: string, setId: string | undefined, o: { split?: string; text?: string; limit: string }) =>
      withApi(async (call) => {
        if (setId === undefined) {
          const sets = await call('questions.sets', { workspaceId })
          const details = await Promise.all(sets.map((s) => call('questions.set', { workspaceId, setId: s.id })))
          print(details, details.map((d) => `#${d.id}  ${d.name}  ${d.questions} questions  ${d.source}${d.splits.length ? `  splits: ${d.splits.map((s) => `${s.name} ${s.count}`).join(', ')}` : ''}${d.unassigned ? `  unassigned ${d.unassigned}` : ''}${d.usedBy.length ? `  (frozen: used by ${d.usedBy.length} runs)` : ''}`).join('\n') || 'No question sets')
          return
        }
        const r = await call('questions.search', { workspaceId, setId: Number(setId), filter: { ...(o.split ? { split: o.split } : {}), ...(o.text ? { text: o.text } : {}) }, limit: Number(o.limit) })
        print(
          r,
          [
            `${r.total} questions`,
            ...r.questions.map((q) => `${String(q.id).padStart(5)}  [${q.split ?? '-'}] ${q.question}\n       answers: ${q.answers.join(' | ')}  gold: ${q.goldSentences.map((g) => `${g.title}#${g.sentence}${g.sentenceId === null ? ' (unresolved)' : ''}`).join('; ') || q.supportingDocs.join('; ') || 'none'}`),
          ].join('\n'),
        )
      }),
    )
}
