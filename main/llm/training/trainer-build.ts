/**
 * Builds the native GGUF trainer (native-src/gguf-trainer) on first use with the system C++ compiler,
 * against the prebuilt libllama / ggml that node-llama-cpp ships and the headers of the same llama.cpp
 * release (cloned from node-llama-cpp's own git bundle). The binary is cached under native/gguf-trainer/
 * by backend, release tag and source hash, so an upgrade of node-llama-cpp or of the trainer rebuilds it.
 * When it cannot be built (no compiler, no git, no prebuilt binaries for this platform) the error says
 * so in words; nothing else in the app depends on it.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { z } from 'zod'
import { jsonColumn } from '../../db/json-column'

const run = promisify(execFile)

export type TrainerBackend = 'cpu' | 'cuda' | 'vulkan'

export class GgufTrainerUnavailableError extends Error {
  override readonly name = 'GgufTrainerUnavailableError'
}

export interface TrainerBinary {
  /** The executable. */
  path: string
  /** The prebuilt backend libraries it links to (passed as its first argument to load the CPU/GPU backends). */
  libDir: string
  backend: TrainerBackend
  llamaCppRelease: string
}

/** The repo (or app) root: the nearest folder above this module with a package.json. */
export function projectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'native-src'))) return dir
    const up = dirname(dir)
    if (up === dir) return process.cwd()
    dir = up
  }
}

const PACKAGE_FOR: Record<TrainerBackend, { pkg: string; bins: string }> = {
  cpu: { pkg: '@node-llama-cpp/linux-x64', bins: 'linux-x64' },
  cuda: { pkg: '@node-llama-cpp/linux-x64-cuda', bins: 'linux-x64-cuda' },
  vulkan: { pkg: '@node-llama-cpp/linux-x64-vulkan', bins: 'linux-x64-vulkan' },
}

/** node-llama-cpp's install folder and the release tag of its binaries. */
function nodeLlamaCpp(): { dir: string; release: string } {
  const require = createRequire(import.meta.url)
  let dir = dirname(require.resolve('node-llama-cpp'))
  while (!existsSync(join(dir, 'llama', 'llama.cpp.info.json'))) {
    const up = dirname(dir)
    if (up === dir) throw new GgufTrainerUnavailableError('node-llama-cpp is installed without its llama/ folder: cannot find the llama.cpp release to build the GGUF trainer against')
    dir = up
  }
  const info = jsonColumn(join(dir, 'llama', 'llama.cpp.info.json'), z.looseObject({ tag: z.string() })).read(readFileSync(join(dir, 'llama', 'llama.cpp.info.json'), 'utf8'))
  return { dir, release: info.tag }
}

function libDirFor(backend: TrainerBackend, nlcDir: string): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new GgufTrainerUnavailableError(`The GGUF trainer is built for linux-x64 only; this is ${process.platform}-${process.arch}`)
  }
  const { pkg, bins } = PACKAGE_FOR[backend]
  // the platform packages sit next to node-llama-cpp in node_modules
  const candidates = [join(nlcDir, '..', pkg, 'bins', bins), join(nlcDir, 'node_modules', pkg, 'bins', bins)]
  const dir = candidates.find((c) => existsSync(join(c, 'libggml-base.so')))
  if (!dir) throw new GgufTrainerUnavailableError(`No prebuilt ${backend} llama.cpp binaries (${pkg}) are installed: cannot build the GGUF trainer for ${backend}`)
  return resolve(dir)
}

async function have(command: string): Promise<boolean> {
  try {
    await run(command, ['--version'])
    return true
  } catch {
    return false
  }
}

/** Release headers: a shallow checkout of include/ and ggml/include/ from node-llama-cpp's git bundle. */
async function ensureHeaders(nativeDir: string, nlcDir: string, release: string): Promise<string> {
  const dest = join(nativeDir, `llama.cpp-${release}`)
  if (existsSync(join(dest, 'include', 'llama.h')) && existsSync(join(dest, 'ggml', 'include', 'ggml-opt.h'))) return dest
  const bundle = join(nlcDir, 'llama', 'gitRelease.bundle')
  if (!existsSync(bundle)) throw new GgufTrainerUnavailableError(`node-llama-cpp ships no llama.cpp source bundle (${bundle}): cannot get the headers to build the GGUF trainer`)
  if (!(await have('git'))) throw new GgufTrainerUnavailableError('Building the GGUF trainer needs git (to read the llama.cpp headers from node-llama-cpp\'s source bundle); install git')
  const tmp = `${dest}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  await run('git', ['clone', '--quiet', '--no-checkout', bundle, tmp])
  await run('git', ['-C', tmp, 'checkout', '--quiet', 'HEAD', '--', 'include', 'ggml/include'])
  // Another process (a test file, the app beside the CLI) may have finished first: keep its checkout, which
  // a build may be reading now, and drop ours.
  if (existsSync(join(dest, 'include', 'llama.h'))) {
    rmSync(tmp, { recursive: true, force: true })
    return dest
  }
  rmSync(dest, { recursive: true, force: true })
  try {
    renameSync(tmp, dest)
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true })
    if (!existsSync(join(dest, 'include', 'llama.h'))) throw err
  }
  return dest
}

/** The trainer's translation units, in a fixed order. */
const sources = (srcDir: string): string[] => readdirSync(srcDir).filter((n) => n.endsWith('.cpp')).sort().map((n) => join(srcDir, n))

/** The trainer's sources and the library folder it links to (its rpath): either changing means a rebuild. */
function sourceHash(srcDir: string, libDir: string): string {
  const h = createHash('sha256')
  for (const f of readdirSync(srcDir).filter((n) => /\.(cpp|hpp)$/.test(n)).sort()) h.update(readFileSync(join(srcDir, f)))
  h.update(libDir)
  return h.digest('hex').slice(0, 12)
}

export interface BuildOptions {
  backend?: TrainerBackend
  /** Where builds are cached (default <project root>/native). */
  nativeDir?: string
  /** Build even when a cached binary exists. */
  force?: boolean
  log?: (line: string) => void
}

const building = new Map<string, Promise<TrainerBinary>>()

/** The trainer binary for a backend, building it first when it is missing. Concurrent calls share one build. */
export function ensureTrainerBinary(options: BuildOptions = {}): Promise<TrainerBinary> {
  const backend = options.backend ?? 'cpu'
  const key = `${backend}:${options.nativeDir ?? ''}:${options.force ? 'force' : ''}`
  let p = building.get(key)
  if (!p) {
    p = build(backend, options).finally(() => building.delete(key))
    building.set(key, p)
  }
  return p
}

async function build(backend: TrainerBackend, options: BuildOptions): Promise<TrainerBinary> {
  const root = projectRoot()
  const srcDir = join(root, 'native-src', 'gguf-trainer')
  if (!existsSync(join(srcDir, 'trainer.cpp'))) throw new GgufTrainerUnavailableError(`The GGUF trainer source is missing (${srcDir})`)
  const nativeDir = options.nativeDir ?? join(root, 'native')
  const nlc = nodeLlamaCpp()
  const libDir = libDirFor(backend, nlc.dir)
  const outDir = join(nativeDir, 'gguf-trainer', `${backend}-${nlc.release}-${sourceHash(srcDir, libDir)}`)
  const exe = join(outDir, 'gguf-trainer')
  const result: TrainerBinary = { path: exe, libDir, backend, llamaCppRelease: nlc.release }
  if (existsSync(exe) && !options.force) return result
  const cxx = process.env['CXX'] ?? 'g++'
  if (!(await have(cxx))) throw new GgufTrainerUnavailableError(`Building the GGUF trainer needs a C++ compiler (${cxx} was not found); install g++ (the README's prerequisites already need one for better-sqlite3)`)
  const headers = await ensureHeaders(nativeDir, nlc.dir, nlc.release)
  mkdirSync(outDir, { recursive: true })
  const lib = (base: string) => `-l:${base}`
  // the GPU packages name their libraries libllama.cuda.<tag>.so, the CPU one libllama.<tag>.so
  const infix = backend === 'cpu' ? '' : `${backend}.`
  // Each process links to its own file and renames it into place (atomic): concurrent builds never share a half-written binary.
  const partial = `${exe}.tmp-${process.pid}`
  const args = [
    '-std=c++17', '-O2', '-o', partial, ...sources(srcDir),
    `-I${join(headers, 'include')}`, `-I${join(headers, 'ggml', 'include')}`,
    `-L${libDir}`, lib(`libllama.${infix}${nlc.release}.so`), lib('libggml-base.so'), lib(`libggml.${infix}${nlc.release}.so`), '-ldl',
    `-Wl,-rpath,${libDir}`,
  ]
  options.log?.(`${cxx} ${args.join(' ')}`)
  try {
    await run(cxx, args, { maxBuffer: 16 * 1024 * 1024 })
  } catch (err) {
    rmSync(partial, { force: true })
    const stderr = (err as { stderr?: string }).stderr ?? String(err)
    throw new GgufTrainerUnavailableError(`The GGUF trainer did not compile against llama.cpp ${nlc.release} (${backend}):\n${stderr.slice(0, 2000)}`)
  }
  renameSync(partial, exe)
  return result
}

/** Whether the CPU trainer can run here (building it when missing): what the UI shows before offering GGUF training. */
export async function trainerStatus(): Promise<{ available: boolean; reason: string | null }> {
  try {
    await ensureTrainerBinary()
    return { available: true, reason: null }
  } catch (err) {
    if (err instanceof GgufTrainerUnavailableError) return { available: false, reason: err.message }
    throw err
  }
}
