/**
 * TRL's real GRPOTrainer (trl 1.13, transformers, torch CPU from the venv .ci/run makes, $HARNESS_LAB_PYTHON) trains
 * for two steps against a live environment server over the demo world, graph-menu and stateful, through the repo's TRL
 * glue (resources/trainers/trl/harness_lab_trl.py). The script is test/python/trl_grpo.py: a tiny llama (LlamaConfig,
 * hidden 64, 2 layers) with a byte-level BPE tokenizer from `tokenizers` and TRL's Qwen2.5 chat template; a short
 * supervised warm-up on correct tool calls built from the environment's own prompts first (a random model never
 * writes a parseable call: the share of sampled replies that parse as one is measured before and after and asserted).
 *
 * Only the Python side loads the policy: the server plays the environments (menus, tool results, rewards, credit) and
 * never runs the model, so nothing has to bring the same weights to node-llama-cpp here.
 *
 * The completion budget covers whole episodes (TRL counts every call and tool result in it) and the warm-up teaches
 * calls at the first turns of a scripted episode, so graph-menu rollouts play several turns and end on their own.
 *
 * Asserted: tool calls reached the server (its step counter grew by exactly the calls TRL logged), every rollout was
 * an episode created and finished on the server, graph-menu rollouts average at least 1.5 turns (tool calls the server
 * played) with at least one of two or more, the graph-menu group's rewards differ (a non-zero advantage), the rewards
 * TRL logged per environment are the means of what the server returned for that step's rollouts, both GRPO losses
 * are not zero and the weights changed. Prints `trl-grpo: turns/rollout <x> graph-menu reward std <s> loss <l>`.
 * Skips, saying so, without $HARNESS_LAB_PYTHON; under CI=true it must run unless .ci/run said why it could not make
 * the venv ($HARNESS_LAB_PYTHON_MISSING: a CI machine with no package index), so a .ci/run that forgets the venv fails.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { useServedDemo } from '../helpers/env-server'

const PY = fileURLToPath(new URL('../python', import.meta.url))
const PYTHON = process.env.HARNESS_LAB_PYTHON
const MISSING = process.env.HARNESS_LAB_PYTHON_MISSING
if (!PYTHON && process.env.CI && !MISSING) throw new Error('trl-grpo: CI=true and no $HARNESS_LAB_PYTHON: .ci/run makes the venv with trl, transformers and torch (or says why not in $HARNESS_LAB_PYTHON_MISSING)')
if (!PYTHON) console.warn(`trl-grpo: no $HARNESS_LAB_PYTHON (${MISSING ?? 'a venv with trl 1.13, transformers, torch; .ci/run makes one'}): skipping the real GRPOTrainer run`)

interface Result {
  system_prompts: Record<string, string>
  versions: { trl: string; transformers: string; torch: string }
  prompt_tokens: number[]
  setup_s: number
  warmup: { steps: number; examples: number; turns: number; loss_first: number; loss_last: number; loss_floor: number; seconds: number; valid_before: number; valid_after: number }
  train_s: number
  total_s: number
  logs: Record<string, number>[]
  recorded: { environment: string; reward: number; turns: number; end_reason: string | null }[]
  tool_names: Record<string, string[]>
  stats_before: Record<'created' | 'finished' | 'deleted' | 'steps' | 'errors', number>
  stats_after: Record<'created' | 'finished' | 'deleted' | 'steps' | 'errors', number>
  changed_tensors: number
  tensors: number
  max_change: number
}

describe.skipIf(!PYTHON)('TRL 1.13 GRPOTrainer against the environment server', () => {
  const served = useServedDemo()

  it('two GRPO steps on graph-menu and stateful: tool calls reach the server, its rewards reach the trainer, the weights change', async () => {
    const started = Date.now()
    const questionId = Number(served.demo.questions[0]!.id)
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        PYTHON!,
        ['trl_grpo.py', JSON.stringify({ keys: [{ question_id: questionId }], seed: 0 })],
        { cwd: PY, env: { ...process.env, HARNESS_LAB_URL: served.server.url, HARNESS_LAB_TOKEN: served.server.token, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 600_000, maxBuffer: 1 << 26 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    )
    expect(run.code, run.stderr.slice(-4000)).toBe(0)
    const out = JSON.parse(run.stdout) as Result
    expect(out.versions.trl).toBe('1.13.0')
    expect(out.tool_names['graph-menu']).toEqual(['choose'])
    expect(out.tool_names['stateful']).toEqual(expect.arrayContaining(['search_corpus', 'curate', 'end_search']))
    // Both prompts ask for a tool call (the chat template says how to write one), never for a bare reply.
    for (const env of ['graph-menu', 'stateful']) {
      expect(out.system_prompts[env], env).toMatch(/calling/)
      expect(out.system_prompts[env], env).not.toMatch(/and nothing else/)
    }

    // The warm-up is what makes tool calls possible at all: none parse before it, some after.
    expect(out.warmup.valid_before).toBeLessThan(out.warmup.valid_after)
    expect(out.warmup.loss_last).toBeLessThan(out.warmup.loss_first)

    // Two optimizer steps, each one group of 4 rollouts per environment.
    const steps = out.logs.filter((l) => 'tools/call_frequency' in l)
    expect(steps).toHaveLength(2)
    const rollouts = 8
    const calls = steps.map((l) => Math.round(l['tools/call_frequency']! * rollouts))
    const failed = steps.map((l, i) => Math.round(l['tools/failure_frequency']! * calls[i]!))
    const delta = (k: keyof Result['stats_after']) => out.stats_after[k] - out.stats_before[k]
    // Every rollout was an episode on the server, created by reset and finished by get_reward.
    expect(delta('created')).toBe(2 * rollouts)
    expect(delta('finished')).toBe(2 * rollouts)
    expect(delta('errors')).toBe(0)
    // Every tool call TRL made (and did not fail before reaching the server) is one step the server played.
    const reached = calls.reduce((a, b) => a + b, 0) - failed.reduce((a, b) => a + b, 0)
    expect(reached).toBeGreaterThan(0)
    expect(delta('steps')).toBe(reached)
    expect(served.server.sessions.counters().steps).toBe(out.stats_after.steps)

    // The rewards TRL logged per environment are the server's rewards of that step's rollouts.
    expect(out.recorded).toHaveLength(2 * rollouts)
    steps.forEach((log, i) => {
      const mine = out.recorded.slice(i * rollouts, (i + 1) * rollouts)
      for (const [env, name] of [['graph-menu', 'HarnessLab_graph_menu'], ['stateful', 'HarnessLab_stateful']] as const) {
        const values = mine.filter((r) => r.environment === env).map((r) => r.reward)
        expect(values).toHaveLength(4)
        expect(log[`rewards/${name}/mean`]).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 5)
      }
    })
    // Whole episodes: graph-menu rollouts play several turns, some two or more, and their rewards differ within the group.
    const menu = out.recorded.filter((r) => r.environment === 'graph-menu')
    const turnsPerRollout = menu.reduce((a, r) => a + r.turns, 0) / menu.length
    expect(turnsPerRollout).toBeGreaterThanOrEqual(1.5)
    expect(Math.max(...menu.map((r) => r.turns))).toBeGreaterThanOrEqual(2)
    const menuStd = steps.map((l) => l['rewards/HarnessLab_graph_menu/std']!)
    expect(Math.max(...menuStd)).toBeGreaterThan(0)
    // Rewards that differ within a group give advantages, a loss and a gradient: the weights moved.
    expect(steps.some((l) => l['reward_std']! > 0)).toBe(true)
    for (const l of steps) expect(l['loss']).not.toBe(0)
    expect(out.changed_tensors).toBeGreaterThan(0)
    expect(out.max_change).toBeGreaterThan(0)

    const seconds = (Date.now() - started) / 1000
    console.log(`trl-grpo: turns/rollout ${turnsPerRollout.toFixed(2)} graph-menu reward std ${Math.max(...menuStd).toFixed(3)} loss ${steps.map((l) => l['loss']!.toFixed(4)).join(', ')}`)
    console.log(
      `trl-grpo: ${out.versions.trl} / transformers ${out.versions.transformers} / torch ${out.versions.torch}; prompts ${out.prompt_tokens.join(', ')} tokens; ` +
        `warm-up ${out.warmup.steps} steps on ${out.warmup.turns} turns (${out.warmup.seconds.toFixed(1)} s, loss ${out.warmup.loss_last.toFixed(3)}, floor ${out.warmup.loss_floor.toFixed(3)}, parseable calls ${(100 * out.warmup.valid_before).toFixed(0)}% -> ${(100 * out.warmup.valid_after).toFixed(0)}%); ` +
        `GRPO 2 steps ${out.train_s.toFixed(1)} s, tool calls ${calls.join('+')}, server steps ${delta('steps')}, rewards ${steps.map((l) => l['reward']!.toFixed(3)).join(', ')}; ` +
        `${out.changed_tensors}/${out.tensors} tensors changed (max ${out.max_change.toExponential(2)}); python ${out.total_s.toFixed(1)} s (setup ${out.setup_s.toFixed(1)} s), wall ${seconds.toFixed(1)} s`,
    )
  }, 900_000)
})
