/**
 * Import rules (docs/architecture.md, "Floors"), checked the way VS Code checks its layers: every
 * import specifier in main/, preload/ and renderer/ is resolved to a repo path and tested against the
 * table below. Imports flow one way, bottom to top. A layer may import itself and any layer on a lower
 * floor of its own stack (main/, preload/, renderer/ are separate bundles and processes; they share
 * only the contract); "sideways" (same floor, another layer) only where its row says so. Every file
 * must belong to a layer, so a new folder has to be placed here on purpose.
 *
 * common/ is the bottom floor: pure helpers any stack may import, importing nothing itself.
 * bench/, scripts/ and test/ have no rules. To place a new folder, add one line to LAYERS.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

interface Layer {
  /** Floors are compared within one stack (the first path segment); 0 is the bottom. */
  floor: number
  /** `dir/**`: the folder and everything below it; `dir/*`: only the files directly in it; else one file. */
  files: string
  note: string
  /** Same-floor layers (by `files`) this one may import. */
  sideways?: string[]
  /** Importable from every stack (only the contract). */
  shared?: boolean
  /** When set, the only packages this layer may import. */
  packages?: string[]
  /** Layers (by `files`) or packages this layer may not import even though they are lower. */
  forbid?: string[]
  /** Why `forbid` holds, for the message. */
  forbidWhy?: string
}

const L = (floor: number, files: string, note: string, extra: Partial<Layer> = {}): Layer => ({ floor, files, note, ...extra })

/** The rooms of main/experiments/ by name, for the sideways lists below. */
const X = {
  hall: 'main/experiments/*', metrics: 'main/experiments/metrics/**', ceiling: 'main/experiments/ceiling/**', runs: 'main/experiments/runs/**',
  trainingConfig: 'main/experiments/training/config/**', training: 'main/experiments/training/*', learners: 'main/experiments/training/learners/**',
  loop: 'main/experiments/training/run-training.ts', trainingFace: 'main/experiments/training/index.ts',
  factories: 'main/experiments/factories.ts', ablation: 'main/experiments/ablation/**',
} as const
/** The training room's floors, for the rooms above it that may use any of them. */
const TRAINING = [X.trainingConfig, X.training, X.learners, X.loop, X.trainingFace]

// prettier-ignore
const LAYERS: Layer[] = [
  // ── shared by every stack ──────────────────────────────────────────────────────────────────────
  L(-1, 'common/**',                          'pure helpers both processes use (byte sizes, hashing): imports nothing', { shared: true, packages: [] }),
  L(0,  'preload/contract/**',                'the typed API contract: route/event zod schemas, trajectory types', { shared: true, packages: ['zod'] }),

  // ── main/: the backend, bottom first ──────────────────────────────────────────────────────────
  L(1,  'main/config/**',                     'data-folder resolution, the app version'),
  L(1,  'main/events/**',                     'the in-process event bus'),
  L(1,  'main/db/**',                         'Kysely schema, migrations, SQLite opening, the native binding'),
  L(1,  'main/text/**',                       'text helpers every floor shares: the plural fold'),
  L(1,  'main/eval/**',                       'pure metrics: EM/F1, recalls, bootstrap CIs, seeded RNG'),
  L(2,  'main/corpus/**',                     'parsers, benchmark importers, demo world, chunking, tokens'),
  L(2,  'main/retrieval/**',                  'the search index: BM25, dense, hybrid, grep, readers',  { sideways: ['main/corpus/**'] }),
  L(2,  'main/jobs/**',                       'the job queue: worker threads, progress, cancel, status'),
  L(3,  'main/graph/**',                      'paragraph-sentence-entity graph: nlp/, store/, links/'),
  L(3,  'main/llm/**',                        'the one LLM home: llama runtime, GGUF files and header, model cache, sequence pool, scoring, constrained choice, embedder'),
  L(4,  'main/ingest/**',                     'the ingest pipeline over corpus + graph + retrieval'),
  L(4,  'main/questions/**',                  'question sets for any corpus: import, generation from the graph, splits'),
  L(5,  'main/workspaces/**',                 'workspace catalogue and per-workspace databases'),
  L(6,  'main/harness/*',                     'environment interface + registry, policy/answerer interfaces, trajectory, the episode loop'),
  L(7,  'main/harness/sentence-substrate/**', 'the sentence substrate shared by the Harness-G environments'),
  L(8,  'main/harness/graph-menu/**',         'Harness-G menu environment'),
  L(8,  'main/harness/free-query/**',         'Search-R1-style free-query baseline environment'),
  L(8,  'main/harness/stateful/**',           'Harness-1 stateful environment and its transcript baseline'),
  L(9,  'main/harness/builtin.ts',            'the static list of built-in environments and the registry over it'),
  L(10, 'main/harness/index.ts',              "the harness's public face: what the layers above import"),
  L(11, 'main/policy/**',                     'policies over the LLM home: llm-policy/, answerer/, prompt/, scripted/, head/, head-policy/'),
  L(12, 'main/models/**',                     'registry of GGUF files and the models loaded in this process'),
  L(13, 'main/rl/**',                         'rewards, credit, estimators, losses, rollout groups, the trainer', {
    forbid: ['main/db/**', 'main/jobs/**', 'main/workspaces/**', 'better-sqlite3', 'kysely'],
    forbidWhy: 'docs/architecture.md: rl/ touches neither the database nor jobs directly',
  }),
  // experiments/: rooms on one floor; each row names the rooms it may use, and those edges form no circle (tested)
  L(14, 'main/experiments/metrics/**',        'scoring: every stored metric (one declaration each), evidence resolution, the episode reward'),
  L(14, 'main/experiments/ceiling/**',        "the oracle's reach search and planner"),
  L(14, 'main/experiments/*',                 'the hall: question loading, scripted policies by name, the metric catalogue', { sideways: [X.metrics, X.ceiling] }),
  L(14, 'main/experiments/runs/**',           'stored runs: store, read model, episode and rollout codecs, replay, compare, evaluation runs', { sideways: [X.hall, X.metrics] }),
  // training/ in three floors: config -> learners -> the loop, over the room's parts (store, rollouts, schedule, held-out play)
  L(14, 'main/experiments/training/config/**', 'training config: resolve, store, defaults and words, the GGUF trainer requests and checks', { sideways: [X.hall, X.metrics, X.runs] }),
  L(14, 'main/experiments/training/*',        'training parts: the run store and read side, rollouts, credit steps, schedule, warm start, held-out play, trained heads', { sideways: [X.hall, X.metrics, X.runs, X.trainingConfig] }),
  L(14, 'main/experiments/training/learners/**', 'the learners (head, GGUF weights) behind one interface', { sideways: [X.hall, X.metrics, X.runs, X.trainingConfig, X.training] }),
  L(14, 'main/experiments/training/run-training.ts', 'the one training loop over a learner', { sideways: [X.hall, X.metrics, X.runs, X.trainingConfig, X.training, X.learners] }),
  L(14, 'main/experiments/training/index.ts', "the training room's face", { sideways: [X.trainingConfig, X.training, X.learners, X.loop] }),
  L(14, 'main/experiments/factories.ts',      'the policy or answerer a spec names, trained ones included', { sideways: [X.hall, ...TRAINING] }),
  L(14, 'main/experiments/validate.ts',       'the checks a run request passes before a job exists', { sideways: [X.factories, X.runs, ...TRAINING] }),
  L(14, 'main/experiments/ablation/**',       'ablation matrices: cells as runs, paired results', { sideways: [X.hall, X.factories, X.metrics, X.runs, ...TRAINING] }),
  L(14, 'main/experiments/findings/**',       "the papers' claims (one declaration each) measured through ablations: findings runs, verdicts, reports", { sideways: [X.hall, X.ablation, X.runs, ...TRAINING] }),
  L(14, 'main/exports/**',                    'run and question-set exports (CSV, JSONL, Parquet), one file per format', { sideways: [X.runs] }),
  L(15, 'main/job-kinds/**',                  'thin job kinds and the job worker entry'),
  L(15, 'main/env-server/**',                 'the environment server for external trainers: episode sessions over the registry, HTTP/JSON'),
  L(16, 'main/app/**',                        'the services object that wires the backend together'),
  L(17, 'main/api/**',                        'route handlers over the contract, the validating dispatcher'),
  L(18, 'main/adapters/**',                   'Electron IPC/window/menu, browser-mode HTTP server, environment server'),
  L(18, 'main/cli.ts',                        'the command line: registers the command groups', { sideways: ['main/cli/**'] }),
  L(18, 'main/cli/**',                        'the command line: one file per command group'),
  L(18, 'main/serve.ts',                      'the browser-mode entry (over the HTTP adapter)', { sideways: ['main/adapters/**'] }),
  L(19, 'main/index.ts',                      'the Electron entry'),

  // ── preload/: the sandboxed Electron bridge ────────────────────────────────────────────────────
  L(1,  'preload/*',                          'the preload bridge (contextBridge over the contract)'),

  // ── renderer/: Vue 3 + Pinia + d3 ──────────────────────────────────────────────────────────────
  L(1,  'renderer/src/api/**',                'transports: Electron bridge, HTTP bridge'),
  L(2,  'renderer/src/stores/**',             'Pinia setup stores over the typed API'),
  L(3,  'renderer/src/components/**',         'components (graph/ explorer, charts, panels)'),
  L(4,  'renderer/src/views/**',              'one view per page'),
  L(5,  'renderer/src/*',                     'App.vue, router, main.ts'),
]

/** Only these files may import 'electron': the Electron adapters, the Electron entry, the preload bridge. */
const ELECTRON_ALLOWED = ['main/adapters/electron-*.ts', 'main/index.ts', 'preload/*']
/** Never node: built-ins here: the renderer runs in a browser, the contract and common/ are shared with it. */
const NO_NODE_BUILTINS = ['renderer/**', 'preload/contract/**', 'common/**']
/** Repo files outside every layer, and the layers that may read them. */
const REPO_FILES: Record<string, string[]> = { 'package.json': ['main/config/**'] }
/**
 * Rooms with a public face (VS Code's no-deep-import rule): a file outside the room imports only the
 * face, never a file past it, so the room's internals can change without touching its callers.
 */
const FACES: Record<string, string> = { 'main/harness/': 'main/harness/index.ts' }

interface SourceFile {
  path: string
  text: string
}

interface Rules {
  layers: Layer[]
  electronAllowed: string[]
  noNodeBuiltins: string[]
  repoFiles: Record<string, string[]>
  faces: Record<string, string>
}

const DEFAULT_RULES: Rules = { layers: LAYERS, electronAllowed: ELECTRON_ALLOWED, noNodeBuiltins: NO_NODE_BUILTINS, repoFiles: REPO_FILES, faces: FACES }

// ── the checker ──────────────────────────────────────────────────────────────────────────────────

const globCache = new Map<string, RegExp>()
function globRe(glob: string): RegExp {
  let re = globCache.get(glob)
  if (re) return re
  let s = ''
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('/**', i) && i + 3 === glob.length) {
      s += '(?:/.*)?'
      break
    }
    if (glob.startsWith('**', i)) {
      s += '.*'
      i++
    } else if (glob[i] === '*') s += '[^/]*'
    else s += glob[i]!.replace(/[.+?^${}()|[\]\\]/, '\\$&')
  }
  re = new RegExp(`^${s}$`)
  globCache.set(glob, re)
  return re
}

const matches = (path: string, globs: string[]): boolean => globs.some((g) => globRe(g).test(path))
const specificity = (glob: string): number => (glob.includes('*') ? glob.indexOf('*') : Number.MAX_SAFE_INTEGER)
const layerName = (l: Layer): string => l.files.replace(/\/\*\*$/, '')
const stackOf = (l: Layer): string => l.files.split('/')[0]!

/** The most specific layer holding `path`, or undefined. */
function layerOf(path: string, layers: Layer[] = LAYERS): Layer | undefined {
  let best: Layer | undefined
  for (const l of layers) if (globRe(l.files).test(path) && (!best || specificity(l.files) > specificity(best.files))) best = l
  return best
}

interface ImportRef {
  specifier: string
  line: number
}

/** Every literal import specifier: import/export ... from, import type, side-effect imports, import('x'), require('x'). */
function importsOf(file: SourceFile): ImportRef[] {
  const blocks: { code: string; offset: number }[] = []
  if (file.path.endsWith('.vue')) {
    for (const m of file.text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
      blocks.push({ code: m[1]!, offset: m.index + m[0].indexOf('>') + 1 })
    }
  } else blocks.push({ code: file.text, offset: 0 })
  const refs: ImportRef[] = []
  for (const { code, offset } of blocks) {
    // TypeScript's own pre-processor: it skips comments and strings, and sees dynamic import() and require().
    for (const f of ts.preProcessFile(code, true, true).importedFiles) {
      const line = file.text.slice(0, offset + f.pos).split('\n').length
      refs.push({ specifier: f.fileName, line })
    }
  }
  return refs
}

const NODE_BUILTINS = new Set(builtinModules)
const packageOf = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/')
const isBuiltin = (spec: string): boolean => spec.startsWith('node:') || NODE_BUILTINS.has(packageOf(spec))

/** A relative specifier as a repo path, by the bundler's rules (extension and index lookups, .js -> .ts). */
function resolveRelative(from: string, specifier: string, known: Set<string>): string {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier.replace(/[?#].*$/, '')))
  const stem = base.replace(/\.[cm]?js$/, '')
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`]
  for (const ext of ['.ts', '.mts', '.mjs', '.js', '.vue', '.json']) candidates.push(base + ext)
  for (const ext of ['.ts', '.mts', '.mjs', '.js']) candidates.push(`${base}/index${ext}`)
  return candidates.find((c) => known.has(c)) ?? base
}

/**
 * All rule violations in `files`, as `file:line imports X (reason)`, sorted by file and line.
 * `known` is every repo path an import may resolve to (defaults to the files themselves).
 */
function checkImports(files: SourceFile[], rules: Rules = DEFAULT_RULES, known = new Set(files.map((f) => f.path))): string[] {
  const out: { path: string; line: number; msg: string }[] = []
  for (const file of files) {
    const from = layerOf(file.path, rules.layers)
    if (!from) {
      out.push({ path: file.path, line: 0, msg: `${file.path} belongs to no layer: place its folder in LAYERS (test/unit/import-rules.test.ts)` })
      continue
    }
    const a = layerName(from)
    for (const { specifier, line } of importsOf(file)) {
      const at = `${file.path}:${line} imports '${specifier}'`
      const flag = (why: string) => out.push({ path: file.path, line, msg: `${at} (${why})` })

      if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
        const pkg = packageOf(specifier)
        if (pkg === 'electron' && !matches(file.path, rules.electronAllowed)) {
          flag(`layer ${a} may not import electron: only ${rules.electronAllowed.join(', ')} may`)
        } else if (isBuiltin(specifier) && matches(file.path, rules.noNodeBuiltins)) {
          flag(`layer ${a} may not import node built-ins`)
        } else if (from.packages && !from.packages.includes(pkg)) {
          flag(from.packages.length ? `layer ${a} may import only the packages ${from.packages.join(', ')}` : `layer ${a} may import no packages`)
        } else if (from.forbid?.includes(pkg)) {
          flag(`layer ${a} may not import ${pkg}: ${from.forbidWhy ?? 'forbidden by its row'}`)
        }
        continue
      }

      const target = resolveRelative(file.path, specifier, known)
      if (target === file.path) continue
      const readers = rules.repoFiles[target]
      if (readers) {
        if (!matches(file.path, readers)) flag(`layer ${a} may not read ${target}: only ${readers.join(', ')} may`)
        continue
      }
      const room = Object.keys(rules.faces).find((r) => target.startsWith(r) && !file.path.startsWith(r))
      if (room && target !== rules.faces[room]) {
        flag(`${target} is past the face of ${room.replace(/\/$/, '')}: import ${rules.faces[room]} instead`)
        continue
      }
      const to = layerOf(target, rules.layers)
      if (!to) {
        flag(`${target} is in no layer, so layer ${a} may not import it`)
        continue
      }
      if (to === from) continue
      const b = layerName(to)
      if (from.forbid?.includes(to.files)) {
        flag(`layer ${a} may not import layer ${b}: ${from.forbidWhy ?? 'forbidden by its row'}`)
        continue
      }
      if (from.sideways?.includes(to.files)) continue
      if (stackOf(to) !== stackOf(from) && !to.shared) {
        flag(`layer ${a} may not import layer ${b}: ${stackOf(from)}/ and ${stackOf(to)}/ share only the contract`)
      } else if (to.floor > from.floor) {
        flag(`layer ${a} may not import layer ${b}: upward, floor ${to.floor} is above floor ${from.floor}`)
      } else if (to.floor === from.floor) {
        flag(`layer ${a} may not import layer ${b}: sideways on floor ${to.floor}, not listed in its row`)
      }
    }
  }
  out.sort((x, y) => (x.path === y.path ? x.line - y.line : x.path < y.path ? -1 : 1))
  return out.map((v) => v.msg)
}

/** A circle in the sideways permissions (as the layers it passes through, first repeated), or null. */
function sidewaysCircle(layers: Layer[]): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const walk = (files: string, path: string[]): string[] | null => {
    if (state.get(files) === 'open') return [...path.slice(path.indexOf(files)), files]
    if (state.get(files) === 'done') return null
    state.set(files, 'open')
    for (const next of layers.find((l) => l.files === files)?.sideways ?? []) {
      const circle = walk(next, [...path, files])
      if (circle) return circle
    }
    state.set(files, 'done')
    return null
  }
  for (const l of layers) {
    const circle = walk(l.files, [])
    if (circle) return circle
  }
  return null
}

// ── the repo ─────────────────────────────────────────────────────────────────────────────────────

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SCANNED = ['common', 'main', 'preload', 'renderer']
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js|vue)$/

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(rel)
    return e.isFile() ? [rel] : []
  })
}

function repoSources(): { files: SourceFile[]; known: Set<string> } {
  const all = SCANNED.flatMap(walk)
  const files = all.filter((p) => SOURCE.test(p)).map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
  return { files, known: new Set(all) }
}

// ── tests ────────────────────────────────────────────────────────────────────────────────────────

describe('import rules', () => {
  it('the checker catches upward, sideways, cross-stack, electron, built-in and unplaced imports', () => {
    const fake: SourceFile[] = [
      { path: 'main/corpus/types.ts', text: 'export type C = 1\n' },
      { path: 'main/db/open.ts', text: '' },
      { path: 'main/config/paths.ts', text: '' },
      { path: 'main/harness/stateful/index.ts', text: '' },
      { path: 'preload/contract/index.ts', text: "import { z } from 'zod'\n" },
      // upward: graph (floor 3) -> ingest (floor 4)
      { path: 'main/graph/a.ts', text: "// import { x } from '../db/open' is only a comment\nimport { x } from '../ingest/run'\n" },
      // downward and allowed
      { path: 'main/ingest/run.ts', text: "import { g } from '../graph/a'\nimport type { C } from '../corpus/types.js'\n" },
      // sideways, not listed: jobs -> corpus on floor 2
      { path: 'main/jobs/b.ts', text: "\n\nimport type { C } from '../corpus/types'\n" },
      // sideways, listed: retrieval -> corpus
      { path: 'main/retrieval/c.ts', text: "export { type C } from '../corpus/types'\n" },
      // sideways between environments, through export-from
      { path: 'main/harness/graph-menu/h.ts', text: "const s = \"import x from '../stateful'\"\nexport * from '../stateful'\n" },
      // a folder in no layer
      { path: 'main/newroom/d.ts', text: "import { g } from '../graph/a'\n" },
      // a file importing something in no layer
      { path: 'main/eval/e.ts', text: "import { h } from '../../test/helpers/services'\n" },
      // electron outside the adapters, via dynamic import
      { path: 'main/harness/f.ts', text: "export async function f() {\n  return (await import('electron')).app\n}\n" },
      { path: 'main/adapters/electron-ok.ts', text: "import { app } from 'electron'\n" },
      // renderer: main/ (cross-stack, type-only), a node built-in, the contract (fine), inside <script setup>
      {
        path: 'renderer/src/views/V.vue',
        text: "<template><p/></template>\n<script setup lang=\"ts\">\nimport type { Db } from '../../../main/db/open'\nimport { readFileSync } from 'fs'\nimport { z } from '../../../preload/contract'\n</script>\n",
      },
      // contract: a second package and a require of main/
      { path: 'preload/contract/g.ts', text: "import { z } from 'zod'\nimport superjson from 'superjson'\nconst r = require('../../main/config/paths')\n" },
      // rl may not touch the database, although db is lower
      { path: 'main/rl/i.ts', text: "import type SQLite from 'better-sqlite3'\nimport { open } from '../db/open'\n" },
      // past the harness face: a deep import from above, and the face itself (fine)
      { path: 'main/policy/k.ts', text: "import { CuratedSet } from '../harness/stateful'\nimport { createEnvironment } from '../harness'\n" },
      { path: 'main/harness/index.ts', text: "export * from './stateful'\n" },
      // common/ is the bottom floor: every stack may import it, and it imports nothing
      { path: 'common/bytes.ts', text: '' },
      { path: 'common/x.ts', text: "import { z } from 'zod'\nimport { ApiError } from '../preload/contract'\nimport { formatBytes } from './bytes'\n" },
      { path: 'renderer/src/views/W.vue', text: "<script setup lang=\"ts\">\nimport { formatBytes } from '../../../common/bytes'\n</script>\n" },
      { path: 'main/cli/l.ts', text: "import { formatBytes } from '../../common/bytes'\n" },
      // package.json is readable from main/config only
      { path: 'main/config/version.ts', text: "import pkg from '../../package.json' with { type: 'json' }\n" },
      { path: 'main/api/j.ts', text: "import pkg from '../../package.json' with { type: 'json' }\n" },
    ]
    expect(checkImports(fake)).toEqual([
      "common/x.ts:1 imports 'zod' (layer common may import no packages)",
      "common/x.ts:2 imports '../preload/contract' (layer common may not import layer preload/contract: upward, floor 0 is above floor -1)",
      "main/api/j.ts:1 imports '../../package.json' (layer main/api may not read package.json: only main/config/** may)",
      "main/eval/e.ts:1 imports '../../test/helpers/services' (test/helpers/services is in no layer, so layer main/eval may not import it)",
      "main/graph/a.ts:2 imports '../ingest/run' (layer main/graph may not import layer main/ingest: upward, floor 4 is above floor 3)",
      "main/harness/f.ts:2 imports 'electron' (layer main/harness/* may not import electron: only main/adapters/electron-*.ts, main/index.ts, preload/* may)",
      "main/harness/graph-menu/h.ts:2 imports '../stateful' (layer main/harness/graph-menu may not import layer main/harness/stateful: sideways on floor 8, not listed in its row)",
      "main/jobs/b.ts:3 imports '../corpus/types' (layer main/jobs may not import layer main/corpus: sideways on floor 2, not listed in its row)",
      'main/newroom/d.ts belongs to no layer: place its folder in LAYERS (test/unit/import-rules.test.ts)',
      "main/policy/k.ts:1 imports '../harness/stateful' (main/harness/stateful/index.ts is past the face of main/harness: import main/harness/index.ts instead)",
      "main/rl/i.ts:1 imports 'better-sqlite3' (layer main/rl may not import better-sqlite3: docs/architecture.md: rl/ touches neither the database nor jobs directly)",
      "main/rl/i.ts:2 imports '../db/open' (layer main/rl may not import layer main/db: docs/architecture.md: rl/ touches neither the database nor jobs directly)",
      "preload/contract/g.ts:2 imports 'superjson' (layer preload/contract may import only the packages zod)",
      "preload/contract/g.ts:3 imports '../../main/config/paths' (layer preload/contract may not import layer main/config: preload/ and main/ share only the contract)",
      "renderer/src/views/V.vue:3 imports '../../../main/db/open' (layer renderer/src/views may not import layer main/db: renderer/ and main/ share only the contract)",
      "renderer/src/views/V.vue:4 imports 'fs' (layer renderer/src/views may not import node built-ins)",
    ])
  })

  it('the table is consistent', () => {
    const files = LAYERS.map((l) => l.files)
    expect(new Set(files).size, 'each layer is listed once').toBe(files.length)
    for (const l of LAYERS) {
      for (const s of l.sideways ?? []) {
        const to = LAYERS.find((x) => x.files === s)
        expect(to, `${l.files}: sideways ${s} names a layer`).toBeDefined()
        expect([to!.floor, stackOf(to!)], `${l.files}: sideways ${s} is on the same floor and stack`).toEqual([l.floor, stackOf(l)])
      }
      for (const f of l.forbid ?? []) {
        if (f.includes('/') && !f.startsWith('@')) expect(files, `${l.files}: forbid ${f} names a layer`).toContain(f)
      }
    }
    expect(sidewaysCircle(LAYERS), 'the sideways permissions form no circle (rooms on one floor still import one way)').toBeNull()
    expect(sidewaysCircle([L(1, 'a/**', '', { sideways: ['b/**'] }), L(1, 'b/**', '', { sideways: ['c/**'] }), L(1, 'c/**', '', { sideways: ['a/**'] })])).toEqual(['a/**', 'b/**', 'c/**', 'a/**'])
    expect(layerOf('main/experiments/factories.ts')?.files).toBe('main/experiments/factories.ts')
    expect(layerOf('main/experiments/questions.ts')?.files).toBe('main/experiments/*')
    expect(layerOf('main/harness/builtin.ts')?.files).toBe('main/harness/builtin.ts')
    expect(layerOf('main/harness/types.ts')?.files).toBe('main/harness/*')
    expect(layerOf('main/harness/index.ts')?.files).toBe('main/harness/index.ts')
    expect(layerOf('main/harness/sentence-substrate/index.ts')?.files).toBe('main/harness/sentence-substrate/**')
    expect(layerOf('main/harness/newenv/index.ts')).toBeUndefined()
    expect(layerOf('main/policy/scripted/harness-g/greedy.ts')?.files).toBe('main/policy/**')
  })

  it("docs/architecture.md's floor list names every folder of main/ on the floor LAYERS gives it", () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
    const section = doc.slice(doc.indexOf('## Floors of `main/`'), doc.indexOf('## The episode spine'))
    // `N. names: words` or `N-M. names.`; the names are the backticked paths before the first colon, outside parentheses.
    const items = [...section.matchAll(/^(\d+)(?:-(\d+))?\. (.*)$/gm)].map((m) => ({
      lo: Number(m[1]), hi: Number(m[2] ?? m[1]),
      names: [...m[3]!.split(/:\s/)[0]!.replace(/\([^)]*\)/g, '').matchAll(/`([^`]+)`/g)].map((n) => n[1]!.split('/')[0]!),
    }))
    expect(items.length, 'the floor list is found').toBeGreaterThan(10)
    const floorOfName = new Map<string, { lo: number; hi: number }>()
    for (const item of items) for (const name of item.names) floorOfName.set(name, item)
    const wrong: string[] = []
    for (const l of LAYERS.filter((x) => stackOf(x) === 'main')) {
      const top = l.files.split('/')[1]!.replace(/\*+$/, '')
      const named = floorOfName.get(top)
      if (!named) wrong.push(`${l.files}: main/${top} is not in the floor list`)
      else if (l.floor < named.lo || l.floor > named.hi) wrong.push(`${l.files}: floor ${l.floor} in LAYERS, ${named.lo === named.hi ? named.lo : `${named.lo}-${named.hi}`} in the doc`)
    }
    for (const name of floorOfName.keys()) if (!LAYERS.some((l) => l.files.startsWith(`main/${name}`))) wrong.push(`the doc's ${name} is in no layer`)
    expect(wrong).toEqual([])
  })

  it('every file in main/, preload/ and renderer/ is in a layer and imports only what its layer may', () => {
    const { files, known } = repoSources()
    // The scan must see the repo, or the check below would pass on nothing.
    expect(files.length).toBeGreaterThan(100)
    expect(files.some((f) => f.path.endsWith('.vue'))).toBe(true)
    expect(files.reduce((n, f) => n + importsOf(f).length, 0)).toBeGreaterThan(500)
    const violations = checkImports(files, DEFAULT_RULES, known)
    if (violations.length > 0) {
      throw new Error(`${violations.length} import-rule violation(s) (rules: test/unit/import-rules.test.ts):\n${violations.join('\n')}`)
    }
  })
})
