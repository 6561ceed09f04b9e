import type { RouteInput } from '../../preload/contract'
import type { Services } from '../app/services'
import type { Call, Cli } from './context'

type IngestParams = Extract<RouteInput<'job.start'>, { kind: 'corpus.ingest' }>['params']

export function registerCorpusCommands(cli: Cli): void {
  const { withApi, print, json, runJob } = cli

  /** Starts an ingest job, prints its progress, and waits for it. */
  const ingestAndWait = async (call: Call, services: Services, workspaceId: string, params: IngestParams): Promise<void> => {
    const done = await runJob(call, services, { kind: 'corpus.ingest', workspaceId, params })
    const failures = (done.kind === 'corpus.ingest' ? (done.result?.failures ?? []) : []).map((f) => `  failed: ${f.error ?? f.label}`)
    print(done, [`${done.status}: ${done.error ?? done.message}`, ...failures].join('\n'))
    if (done.status !== 'done') process.exitCode = 1
  }

  const corpus = cli.program.command('corpus').description('ingest, inspect and search a workspace corpus')
  corpus
    .command('demo <name>')
    .description('create a workspace holding the demo world (a fictional encyclopedia with questions)')
    .option('--seed <n>', 'generator seed', '1')
    .option('--size <x>', 'world size (1 is about 90 articles)', '1')
    .action((name: string, o: { seed: string; size: string }) =>
      withApi(async (call, services) => {
        const w = await call('workspace.create', { name })
        if (!json()) console.log(`Created workspace "${w.name}" (${w.id})`)
        await ingestAndWait(call, services, w.id, { source: { kind: 'demo', seed: Number(o.seed), size: Number(o.size) } })
      }),
    )
  corpus
    .command('ingest <workspaceId>')
    .description('ingest a folder, files, a benchmark or the demo world')
    .option('--folder <path>', 'a folder of txt/md/html/pdf/docx/json/jsonl files')
    .option('--file <path...>', 'one or more files')
    .option('--benchmark <kind>', 'hotpotqa | 2wikimultihopqa | musique | flashrag')
    .option('--questions <file>', 'benchmark questions file')
    .option('--corpus <file>', 'benchmark corpus file')
    .option('--demo', 'the demo world')
    .option('--seed <n>', 'demo world seed', '1')
    .option('--size <x>', 'demo world size', '1')
    .option('--chunk-tokens <n>', 'chunk size in cl100k tokens', '1200')
    .option('--overlap-tokens <n>', 'chunk overlap in tokens', '100')
    .action((workspaceId: string, o: Record<string, string | string[] | boolean | undefined>) =>
      withApi(async (call, services) => {
        const source = o.demo
          ? { kind: 'demo' as const, seed: Number(o.seed), size: Number(o.size) }
          : o.folder
            ? { kind: 'folder' as const, path: String(o.folder) }
            : o.file
              ? { kind: 'files' as const, paths: o.file as string[] }
              : o.benchmark
                ? {
                    kind: 'benchmark' as const,
                    benchmark: String(o.benchmark) as 'hotpotqa',
                    ...(o.questions ? { questionsFile: String(o.questions) } : {}),
                    ...(o.corpus ? { corpusFile: String(o.corpus) } : {}),
                  }
                : null
        if (!source) throw new Error('say what to ingest: --folder, --file, --benchmark or --demo')
        await ingestAndWait(call, services, workspaceId, { source, chunkTokens: Number(o.chunkTokens), overlapTokens: Number(o.overlapTokens) })
      }),
    )
  corpus.command('stats <workspaceId>').action((workspaceId: string) =>
    withApi(async (call) => {
      const s = await call('corpus.stats', { workspaceId })
      print(s, Object.entries(s).map(([k, v]) => `${k.padEnd(16)} ${typeof v === 'object' ? JSON.stringify(v) : v}`).join('\n'))
    }),
  )
  corpus
    .command('search <workspaceId> <query>')
    .option('-k <n>', 'results', '10')
    .option('--mode <mode>', 'bm25 | dense | hybrid', 'bm25')
    .action((workspaceId: string, query: string, o: { k: string; mode: string }) =>
      withApi(async (call) => {
        const r = await call('corpus.search', { workspaceId, query, k: Number(o.k), mode: o.mode as 'bm25' })
        const plain = (s: string): string => s.replace(/\u0001/g, '[').replace(/\u0002/g, ']')
        print(r, r.hits.map((h) => `${String(h.rank).padStart(3)}. ${h.title}  (chunk ${h.chunkId}, ${h.score.toFixed(2)})\n     ${plain(h.snippet)}`).join('\n') || 'No results')
      }),
    )
  corpus
    .command('grep <workspaceId> <pattern>')
    .description('regular expression over chunk text, capped by results and time')
    .option('--flags <flags>', 'regex flags among i, m, s, u, v', 'i')
    .option('--max <n>', 'most results', '100')
    .option('--budget-ms <n>', 'time budget in ms', '2000')
    .action((workspaceId: string, pattern: string, o: { flags: string; max: string; budgetMs: string }) =>
      withApi(async (call) => {
        const r = await call('corpus.grep', { workspaceId, pattern, flags: o.flags, maxResults: Number(o.max), timeBudgetMs: Number(o.budgetMs) })
        const head = `${r.hits.length} matches in ${r.scannedChunks} chunks, ${r.millis.toFixed(1)} ms${r.truncated ? ` (capped at ${r.maxResults})` : ''}${r.timedOut ? ' (time budget spent: not every chunk was read)' : ''}`
        print(r, [head, ...r.hits.map((h) => `  ${h.title}  (document ${h.documentId}, chunk ${h.chunkId}, line ${h.line})  ${h.context}`)].join('\n'))
      }),
    )
}
