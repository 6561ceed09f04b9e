import type { ChunkingOptions } from '../corpus/chunker'
import { DEMO_WORLD_VERSION, generateDemoWorld } from '../corpus/demo-world'
import { importBenchmark, type BenchmarkKind } from '../corpus/importers'
import { parseFile, type ParseOptions } from '../corpus/parsers'
import { IngestFileError, type GoldQuestion } from '../corpus/types'
import { prepareDocuments, type PreparedDocument } from './prepare'

/**
 * What to read for one unit of ingest, as plain data: it crosses into the file worker (worker.ts),
 * which runs `processUnit` on it under the file's time and memory budget.
 */
export type UnitTask =
  | { kind: 'file'; absPath: string; relPath: string }
  | { kind: 'benchmark'; benchmark: BenchmarkKind; questionsFile?: string; corpusFile?: string }
  | { kind: 'demo'; seed: number; size: number }

export interface ProcessOptions {
  /** Parser options; serialisable (no callbacks). */
  parse: ParseOptions
  chunking: ChunkingOptions
}

/** A unit parsed and prepared, ready for the writer. */
export interface ProcessedUnit {
  documents: PreparedDocument[]
  questions: GoldQuestion[]
  /** What the parser did that the file's record should say (skipped lines, the plain HTML extractor). */
  notes: string[]
  seconds: { parse: number; nlp: number }
}

/** Steps of a unit, for progress and for budget decisions ('readability' may be retried with the plain extractor). */
export type ProcessStage = 'parse' | 'readability' | 'plain' | 'sentences & entities'

export interface ProcessHooks {
  /** `fraction` is how far into the stage (sentences & entities: share of the characters done). */
  stage?(stage: ProcessStage, fraction: number): void
}

export const demoWorldSignature = (seed: number, size: number): string => `demo-world-v${DEMO_WORLD_VERSION}:${seed}:${size}`

async function load(task: UnitTask, options: ProcessOptions, hooks: ProcessHooks): Promise<{ documents: PreparedDocument['doc'][]; questions: GoldQuestion[]; notes: string[] }> {
  switch (task.kind) {
    case 'file': {
      const parse: ParseOptions = { ...options.parse, html: { ...options.parse.html, onStage: (stage) => hooks.stage?.(stage, 0) } }
      return parseFile(task.absPath, task.relPath, parse)
    }
    case 'benchmark': {
      const files = { ...(task.questionsFile ? { questionsFile: task.questionsFile } : {}), ...(task.corpusFile ? { corpusFile: task.corpusFile } : {}) }
      return { ...(await importBenchmark(task.benchmark, files)), notes: [] }
    }
    case 'demo': {
      const world = generateDemoWorld({ seed: task.seed, size: task.size })
      return { documents: world.documents, questions: world.questions, notes: [] }
    }
  }
}

/** Throttles fraction reports to steps of at least `step` (the last one always goes through). */
function throttled(report: (fraction: number) => void, step = 0.005): (fraction: number) => void {
  let last = -1
  return (fraction) => {
    if (fraction - last >= step || (fraction >= 1 && last < 1)) {
      last = fraction
      report(fraction)
    }
  }
}

/**
 * Parses and prepares one unit: its documents with sentences, mentions and chunks, its questions and
 * its notes. CPU and file reads only, no database: the same function runs in the file worker and, for
 * generated sources, in the ingest's own thread. The result depends on the unit and the options alone.
 */
export async function processUnit(task: UnitTask, options: ProcessOptions, hooks: ProcessHooks = {}): Promise<ProcessedUnit> {
  hooks.stage?.('parse', 0)
  let t = performance.now()
  const parsed = await load(task, options, hooks)
  const parse = (performance.now() - t) / 1000
  if (parsed.documents.length === 0 && parsed.questions.length === 0) {
    const label = task.kind === 'file' ? task.relPath : task.kind
    throw new IngestFileError('empty', `${label}: no documents found`)
  }
  t = performance.now()
  hooks.stage?.('sentences & entities', 0)
  const report = hooks.stage ? throttled((fraction) => hooks.stage!('sentences & entities', fraction)) : undefined
  const documents = prepareDocuments(parsed.documents, options.chunking, report)
  return { documents, questions: parsed.questions, notes: parsed.notes, seconds: { parse, nlp: (performance.now() - t) / 1000 } }
}
