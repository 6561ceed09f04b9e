/**
 * npx tsx scripts/device-kit.ts [out-dir]: packs what a bare GPU machine needs to build and check the GGUF
 * trainer (scripts/device-check-gguf-train.sh): the llama.cpp release node-llama-cpp ships (its git bundle,
 * with node-llama-cpp's own patches applied), cut to the folders a CUDA/CPU build of libllama reads, as one
 * tar.xz (about 2 MB). Such a machine may have CUDA, cmake, python3 and numpy but no node, npm or internet;
 * the trainer's sources travel with the working tree, gguf-py inside the kit writes the test models.
 * Default out-dir: .device-kit/ (ignored by git; name it in the device tool's `carry`).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const out = resolve(process.argv[2] ?? '.device-kit')
const require = createRequire(import.meta.url)
let nlc = dirname(require.resolve('node-llama-cpp'))
while (!existsSync(join(nlc, 'llama', 'llama.cpp.info.json'))) nlc = dirname(nlc)
const release = (JSON.parse(readFileSync(join(nlc, 'llama', 'llama.cpp.info.json'), 'utf8')) as { tag: string }).tag
const work = mkdtempSync(join(tmpdir(), 'device-kit-'))
const git = (args: string[], cwd = work) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] })
try {
  git(['clone', '--quiet', join(nlc, 'llama', 'gitRelease.bundle'), 'src'])
  const src = join(work, 'src')
  const patches = join(nlc, 'llama', 'patches')
  for (const p of existsSync(patches) ? readdirSync(patches).filter((n) => n.endsWith('.diff')).sort() : []) git(['apply', join(patches, p)], src)
  // the folders a libllama build reads, and gguf-py for the models the check writes
  const keep = ['CMakeLists.txt', 'LICENSE', 'cmake', 'ggml', 'src', 'include', 'vendor', 'gguf-py']
  const tree = join(work, `llama.cpp-${release}`)
  mkdirSync(tree)
  execFileSync('bash', ['-c', `tar -C "${src}" -cf - ${keep.join(' ')} | tar -C "${tree}" -xf -`])
  // backends a CUDA or CPU build never compiles
  const backends = join(tree, 'ggml', 'src')
  for (const d of readdirSync(backends)) {
    if (d.startsWith('ggml-') && statSync(join(backends, d)).isDirectory() && !['ggml-cpu', 'ggml-cuda'].includes(d)) rmSync(join(backends, d), { recursive: true })
  }
  mkdirSync(out, { recursive: true })
  const file = join(out, 'llama.cpp-src.tar.xz')
  execFileSync('tar', ['-C', work, '-cJf', file, `llama.cpp-${release}`])
  console.log(`${file}: llama.cpp ${release} (node-llama-cpp's release), ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
