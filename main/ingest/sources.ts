import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { basename, join, relative } from 'node:path'
import { DEMO_WORLD_VERSION, generateDemoWorld } from '../corpus/demo-world'
import { importBenchmark, type BenchmarkKind } from '../corpus/importers'
import { detectFormat, parseFile, type JsonFieldNames } from '../corpus/parsers'
import type { ParsedSource } from '../corpus/types'

export type IngestSource =
  | { kind: 'folder'; path: string }
  | { kind: 'files'; paths: string[] }
  | { kind: 'benchmark'; benchmark: BenchmarkKind; questionsFile?: string; corpusFile?: string }
  | { kind: 'demo'; seed: number; size: number }

/** One unit of ingest: succeeds or fails on its own, in its own transaction. */
export interface IngestUnit {
  /** Stable key stored as source_files.path: the absolute path, or a pseudo path for generated sources. */
  key: string
  /** What the UI shows. */
  label: string
  format: string
  sizeBytes: number
  /** Content hash (without settings); computed lazily because it reads the file. */
  hash(): Promise<string>
  load(): Promise<ParsedSource>
  questionSet?: { name: string; source: string }
}

async function sha256File(...files: string[]): Promise<string> {
  const h = createHash('sha256')
  for (const f of files) {
    await new Promise<void>((resolve, reject) => {
      createReadStream(f)
        .on('data', (d) => h.update(d))
        .on('end', resolve)
        .on('error', reject)
    })
  }
  return h.digest('hex')
}

/** Every regular file under a folder, hidden files and folders skipped, in a stable order. */
async function walk(root: string): Promise<string[]> {
  const out: string[] = []
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true })
    entries.sort((a, b) => a.name.localeCompare(b.name))
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      const full = join(dir, e.name)
      if (e.isDirectory()) await visit(full)
      else if (e.isFile()) out.push(full)
    }
  }
  await visit(root)
  return out
}

export interface UnitOptions {
  maxFileBytes: number
  json?: JsonFieldNames
}

function fileUnit(abs: string, rel: string, size: number, options: UnitOptions): IngestUnit {
  return {
    key: abs,
    label: rel,
    format: detectFormat(abs) ?? 'unknown',
    sizeBytes: size,
    hash: () => (size > options.maxFileBytes ? Promise.resolve(`size:${size}`) : sha256File(abs)),
    load: () => parseFile(abs, rel, { maxFileBytes: options.maxFileBytes, ...(options.json ? { json: options.json } : {}) }),
  }
}

/** Resolves a source into units. A missing folder or file is an error for the whole request. */
export async function resolveUnits(source: IngestSource, options: UnitOptions): Promise<IngestUnit[]> {
  switch (source.kind) {
    case 'folder': {
      const info = await stat(source.path).catch(() => null)
      if (!info?.isDirectory()) throw new Error(`Not a folder: ${source.path}`)
      const files = await walk(source.path)
      return Promise.all(files.map(async (f) => fileUnit(f, relative(source.path, f), (await stat(f)).size, options)))
    }
    case 'files':
      return Promise.all(
        source.paths.map(async (f) => {
          const info = await stat(f).catch(() => null)
          if (!info?.isFile()) throw new Error(`Not a file: ${f}`)
          return fileUnit(f, basename(f), info.size, options)
        }),
      )
    case 'benchmark': {
      const files = [source.questionsFile, source.corpusFile].filter((f): f is string => Boolean(f))
      if (files.length === 0) throw new Error('A benchmark import needs a questions file and/or a corpus file')
      let size = 0
      for (const f of files) {
        const info = await stat(f).catch(() => null)
        if (!info?.isFile()) throw new Error(`Not a file: ${f}`)
        size += info.size
      }
      const name = `${source.benchmark}: ${files.map((f) => basename(f)).join(' + ')}`
      return [
        {
          key: `benchmark:${source.benchmark}:${files.join('|')}`,
          label: name,
          format: source.benchmark,
          sizeBytes: size,
          hash: () => sha256File(...files),
          load: () => importBenchmark(source.benchmark, { ...(source.questionsFile ? { questionsFile: source.questionsFile } : {}), ...(source.corpusFile ? { corpusFile: source.corpusFile } : {}) }),
          questionSet: { name, source: source.benchmark },
        },
      ]
    }
    case 'demo': {
      const name = `Demo world (seed ${source.seed}, size ${source.size})`
      return [
        {
          key: `demo-world:seed=${source.seed}:size=${source.size}`,
          label: name,
          format: 'demo-world',
          sizeBytes: 0,
          // Deterministic by seed, size and generator version: together they are the content.
          hash: async () => `demo-world-v${DEMO_WORLD_VERSION}:${source.seed}:${source.size}`,
          load: async () => generateDemoWorld({ seed: source.seed, size: source.size }),
          questionSet: { name, source: 'demo-world' },
        },
      ]
    }
  }
}
