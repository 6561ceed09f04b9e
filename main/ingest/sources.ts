import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, readlink, realpath, stat } from 'node:fs/promises'
import { basename, isAbsolute, join, relative, sep } from 'node:path'
import type { BenchmarkKind } from '../corpus/importers'
import { detectFormat, type JsonFieldNames } from '../corpus/parsers'
import { demoWorldSignature, type UnitTask } from './process'

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
  /** What to read, as plain data (processUnit, in the file worker or in this thread). */
  task: UnitTask
  questionSet?: { name: string; source: string }
}

/** A folder entry that is not ingested, and why (symbolic links, sockets, ...). */
export interface SkippedEntry {
  label: string
  reason: 'symlink' | 'special-file'
  message: string
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

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

/** What a symbolic link points at, for the message: inside the folder (ingested under its own path, if a file) or outside it. */
async function describeLink(realRoot: string, full: string, rel: string): Promise<string> {
  const target = await readlink(full).catch(() => null)
  const resolved = await realpath(full).catch(() => null)
  const shown = target ?? '?'
  if (!resolved) return `${rel}: symbolic link to ${shown}, which does not exist: not followed`
  if (!inside(realRoot, resolved)) return `${rel}: symbolic link to ${shown}, outside the chosen folder: not followed (links are never followed)`
  const where = relative(realRoot, resolved) || '.'
  return `${rel}: symbolic link to ${where} inside the folder: not followed (links are never followed; the target is ingested under its own path)`
}

/**
 * Every regular file under a folder, hidden files and folders skipped, in a stable order; symbolic
 * links and special files (sockets, FIFOs, devices) are listed as skipped with the reason. Links are
 * never followed, whether they point inside the folder or out of it: one pointing out would ingest
 * files the person did not choose, one pointing in would ingest a file twice (or loop, for a folder).
 */
async function walk(root: string): Promise<{ files: string[]; skipped: SkippedEntry[] }> {
  const files: string[] = []
  const skipped: SkippedEntry[] = []
  const realRoot = await realpath(root)
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true })
    entries.sort((a, b) => a.name.localeCompare(b.name))
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      const full = join(dir, e.name)
      const rel = relative(root, full)
      if (e.isSymbolicLink()) skipped.push({ label: rel, reason: 'symlink', message: await describeLink(realRoot, full, rel) })
      else if (e.isDirectory()) await visit(full)
      else if (e.isFile()) files.push(full)
      else {
        const kind = e.isFIFO() ? 'a named pipe (FIFO)' : e.isSocket() ? 'a socket' : e.isBlockDevice() || e.isCharacterDevice() ? 'a device' : 'not a regular file'
        skipped.push({ label: rel, reason: 'special-file', message: `${rel}: ${kind}, not a file: skipped` })
      }
    }
  }
  await visit(root)
  return { files, skipped }
}

export interface UnitOptions {
  maxFileBytes: number
  json?: JsonFieldNames
  /** JSONL: a malformed line fails the whole file (default: it is skipped and reported with its number). */
  strictJsonl?: boolean
}

function fileUnit(abs: string, rel: string, size: number, options: UnitOptions): IngestUnit {
  return {
    key: abs,
    label: rel,
    format: detectFormat(abs) ?? 'unknown',
    sizeBytes: size,
    hash: () => (size > options.maxFileBytes ? Promise.resolve(`size:${size}`) : sha256File(abs)),
    task: { kind: 'file', absPath: abs, relPath: rel },
  }
}

/** Resolves a source into units, and the folder entries it skipped. A missing folder or file is an error for the whole request. */
export async function resolveSource(source: IngestSource, options: UnitOptions): Promise<{ units: IngestUnit[]; skipped: SkippedEntry[] }> {
  switch (source.kind) {
    case 'folder': {
      const info = await stat(source.path).catch(() => null)
      if (!info?.isDirectory()) throw new Error(`Not a folder: ${source.path}`)
      const { files, skipped } = await walk(source.path)
      const units = await Promise.all(files.map(async (f) => fileUnit(f, relative(source.path, f), (await stat(f)).size, options)))
      return { units, skipped }
    }
    case 'files': {
      // Files named one by one are the person's explicit choice: a link among them is followed.
      const units = await Promise.all(
        source.paths.map(async (f) => {
          const info = await stat(f).catch(() => null)
          if (!info?.isFile()) throw new Error(`Not a file: ${f}`)
          return fileUnit(f, basename(f), info.size, options)
        }),
      )
      return { units, skipped: [] }
    }
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
      const task: UnitTask = {
        kind: 'benchmark',
        benchmark: source.benchmark,
        ...(source.questionsFile ? { questionsFile: source.questionsFile } : {}),
        ...(source.corpusFile ? { corpusFile: source.corpusFile } : {}),
      }
      return {
        units: [{ key: `benchmark:${source.benchmark}:${files.join('|')}`, label: name, format: source.benchmark, sizeBytes: size, hash: () => sha256File(...files), task, questionSet: { name, source: source.benchmark } }],
        skipped: [],
      }
    }
    case 'demo': {
      const name = `Demo world (seed ${source.seed}, size ${source.size})`
      return {
        units: [
          {
            key: `demo-world:seed=${source.seed}:size=${source.size}`,
            label: name,
            format: 'demo-world',
            sizeBytes: 0,
            // Deterministic by seed, size and generator version: together they are the content.
            hash: async () => demoWorldSignature(source.seed, source.size),
            task: { kind: 'demo', seed: source.seed, size: source.size },
            questionSet: { name, source: 'demo-world' },
          },
        ],
        skipped: [],
      }
    }
  }
}

/** The units of a source (see resolveSource). */
export async function resolveUnits(source: IngestSource, options: UnitOptions): Promise<IngestUnit[]> {
  return (await resolveSource(source, options)).units
}
