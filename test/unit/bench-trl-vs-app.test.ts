/**
 * `npm run bench:trl-vs-app` in its smallest configuration (2 steps of 1 question x 2 rollouts, 1 training and 1
 * held-out question), run as the bench runs, with $HARNESS_LAB_PYTHON (the venv .ci/run makes): it exits 0, checks the
 * GGUF is the model TRL trains, and prints each side's figures and the ratio line. Timings are the bench's to report,
 * not asserted here. Skips, saying so, without $HARNESS_LAB_PYTHON.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const PYTHON = process.env.HARNESS_LAB_PYTHON
const ROOT = join(import.meta.dirname, '..', '..')
if (!PYTHON) console.warn('bench-trl-vs-app: no $HARNESS_LAB_PYTHON (a venv with trl, transformers, torch, gguf; .ci/run makes one): skipping the bench run')

const SMALLEST = { TRL_VS_APP_STEPS: '2', TRL_VS_APP_GROUP: '2', TRL_VS_APP_QUESTIONS: '1', TRL_VS_APP_TRAIN: '1', TRL_VS_APP_HELDOUT: '1', TRL_VS_APP_SEED: '1' }
const NUMBER = String.raw`(-?\d+(?:\.\d+)?|n/a)`

describe.skipIf(!PYTHON)('bench:trl-vs-app, smallest configuration', () => {
  it('runs both sides on the same model and prints the per-side figures and the ratio line', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'bench', 'trl-vs-app.ts')], { cwd: ROOT, env: { ...process.env, ...SMALLEST }, timeout: 1_500_000, maxBuffer: 1 << 26 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    )
    expect(run.code, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(0)
    const out = run.stdout
    expect(out).toMatch(/same model: [\d,]+ parameters; node-llama-cpp tokenizes a rendered prompt to the same \d+ ids as transformers/)
    expect(out).toMatch(new RegExp(String.raw`^trl: median ${NUMBER} s/step, ${NUMBER} rollouts/s \(2 per step\), ${NUMBER} turns per rollout`, 'm'))
    expect(out).toMatch(new RegExp(String.raw`^app: median ${NUMBER} s/step over 1 steps without a held-out evaluation`, 'm'))
    const ratio = new RegExp(String.raw`^trl-vs-app: step ${NUMBER}x rollouts ${NUMBER}x held-out reward app ${NUMBER} trl ${NUMBER} trl turns/rollout ${NUMBER} app turns/rollout ${NUMBER}$`, 'm').exec(out)
    expect(ratio, out.slice(-2000)).not.toBeNull()
    const [step, , app, trl, trlTurns, appTurns] = ratio!.slice(1).map(Number)
    expect(step).toBeGreaterThan(0)
    for (const r of [app, trl]) expect(r).toBeGreaterThanOrEqual(0)
    // Both sides played tool calls / menu actions on the server's graph-menu episodes.
    expect(trlTurns).toBeGreaterThan(0)
    expect(appTurns).toBeGreaterThan(0)
    console.log(out.split('\n').filter((l) => /^(trl|app|trl-vs-app):/.test(l)).join('\n'))
  }, 1_600_000)
})
