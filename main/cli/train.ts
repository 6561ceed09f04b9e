/**
 * `train`: the same train.run job the Training section starts (same parameters, same validation),
 * progress on stderr, then the held-out headline metrics before and after with bootstrap CIs and the
 * paired difference, and the run id. The reward defaults to the question set's gold level (paragraph
 * F1 + all-gold on paragraph gold); a reward the questions cannot feed is refused with the message that
 * names the term and a preset that can. Ctrl-C cancels (the completed steps stay); `--resume <run>`
 * continues a cancelled or failed run. `export-head` writes a head weights file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import type { MetricInfo, RouteInput, SplitSpec, TrainingRunDetail } from '../../preload/contract'
import type { Call, Cli } from './context'
import { jsonObjectOption } from './json-option'
import { formatDifference, formatMetric } from './table'

type TrainParams = Extract<RouteInput<'job.start'>, { kind: 'train.run' }>['params']

const int = (name: string, text: string): number => {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${text}"`)
  return n
}

/** A stored split name ("train", "dev", "test"), or a range of the set as OFFSET:LIMIT ("0:20"). */
async function splitOf(call: Call, workspaceId: string, setId: number, flag: string, text: string): Promise<SplitSpec> {
  const range = /^(\d+):(\d+)$/.exec(text)
  if (range) return { questionSetId: setId, offset: Number(range[1]), limit: int(flag, range[2]!) }
  const set = await call('questions.set', { workspaceId, setId })
  const split = set.splits.find((s) => s.name === text)
  if (!split) throw new Error(`${flag} "${text}": question set ${setId} has ${set.splits.length ? `the splits ${set.splits.map((s) => `${s.name} (${s.count})`).join(', ')}` : 'no stored splits'}; give one of them or a range OFFSET:LIMIT such as 0:20`)
  return { questionSetId: setId, split: text, offset: 0, limit: split.count }
}

function readConfigFile(path: string): Record<string, unknown> {
  return jsonObjectOption(() => readFileSync(path, 'utf8'), {
    unreadable: (reason) => `--config ${path}: ${reason}`,
    notObject: `--config ${path} must hold a JSON object: training config fields (as the Rewards page saves them)`,
  })
}

/** Before / after of the run's held-out metrics: means with their CIs and the paired difference. */
export function heldOutTable(detail: TrainingRunDetail, catalogue: readonly MetricInfo[]): string {
  const info = new Map(catalogue.map((m) => [m.name, m]))
  const ci = (a: { mean: number | null; lower: number | null; upper: number | null } | undefined, i: MetricInfo | undefined) =>
    !a ? '–' : `${formatMetric(a.mean, i)}${a.lower !== null && a.upper !== null ? ` [${formatMetric(a.lower, i)}, ${formatMetric(a.upper, i)}]` : ''}`
  const rows = detail.heldOut.comparison.map((c) => {
    const i = info.get(c.metric)
    const diff = formatDifference(c.meanDifference, i)
    const dci = c.lower !== null && c.upper !== null ? ` [${formatDifference(c.lower, i)}, ${formatDifference(c.upper, i)}]` : ''
    return [i?.label ?? c.metric, ci(detail.heldOut.before?.metrics[c.metric], i), ci(detail.heldOut.after?.metrics[c.metric], i), `${diff}${dci}`, `${c.wins}/${c.ties}/${c.losses}`]
  })
  const header = ['held-out metric', 'before (95% CI)', `${detail.heldOut.after?.at ?? 'after'} (95% CI)`, 'paired difference', 'W/T/L']
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)))
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

export function registerTrainCommands(cli: Cli): void {
  const { withApi, json, runJob } = cli
  cli.program
    .command('train')
    .description('train the policy head on a question split (or resume a run); progress on stderr, held-out before/after with CIs and the run id at the end')
    .argument('<workspaceId>')
    .option('--env <name>', 'environment the head drives (graph-menu, free-query, stateful)')
    .option('--set <id>', 'question set id (default: the first set)')
    .option('--split <s>', 'train questions: a stored split name, or OFFSET:LIMIT')
    .option('--held-out <s>', 'held-out questions: a stored split name, or OFFSET:LIMIT (must not overlap the train split)')
    .option('--steps <n>', 'training steps')
    .option('--reward <preset>', "reward preset (default: the one for the set's gold level)")
    .option('--credit <scheme>', "credit scheme (snc, info-gain, outcome, ...; default: the environment's, snc on graph-menu, outcome on free-query and stateful)")
    .option('--config <file>', 'a JSON file of training config fields (the TrainConfig minus the splits); the flags above override it')
    .option('--answerer <lexical|path>', 'lexical stand-in, or a GGUF model path', 'lexical')
    .option('--seed <n>', 'run seed')
    .option('--name <name>', 'run name')
    .option('--resume <runId>', 'continue a cancelled or failed run from its last completed step')
    .action((workspaceId: string, o: Record<string, string | undefined>) =>
      withApi(async (call, services) => {
        let params: TrainParams
        if (o.resume !== undefined) {
          params = { mode: 'resume', runId: int('--resume', o.resume) }
        } else {
          if (!o.env) throw new Error('--env is required (or --resume <runId>)')
          if (!o.split || !o.heldOut) throw new Error('--split and --held-out are required: the train and held-out questions')
          const catalog = await call('training.catalog', {})
          const env = catalog.environments.find((e) => e.name === o.env)
          if (!env) throw new Error(`Unknown environment "${o.env}": one of ${catalog.environments.filter((e) => e.headDriven).map((e) => e.name).join(', ')}`)
          const sets = await call('questions.sets', { workspaceId })
          const setId = o.set !== undefined ? int('--set', o.set) : sets[0]?.id
          if (setId === undefined) throw new Error('This workspace has no question set: import or generate questions first')
          const config: Record<string, unknown> = { ...(o.config ? readConfigFile(o.config) : {}), environment: env.name }
          if (o.reward !== undefined) {
            const preset = catalog.rewardPresets.find((p) => p.name === o.reward)
            if (!preset) throw new Error(`Unknown reward preset "${o.reward}": one of ${catalog.rewardPresets.map((p) => p.name).join(', ')}`)
            config.reward = preset.reward
          }
          if (o.credit !== undefined) config.credit = { ...((config.credit as object | undefined) ?? {}), scheme: o.credit }
          if (o.steps !== undefined) config.steps = int('--steps', o.steps)
          if (o.seed !== undefined) config.seed = int('--seed', o.seed)
          if (o.name !== undefined) config.name = o.name
          config.train = await splitOf(call, workspaceId, setId, '--split', o.split)
          config.heldOut = await splitOf(call, workspaceId, setId, '--held-out', o.heldOut)
          params = { mode: 'new', config: config as Extract<TrainParams, { mode: 'new' }>['config'], answerer: o.answerer === 'lexical' || o.answerer === undefined ? { kind: 'lexical' } : { kind: 'gguf', modelPath: o.answerer } }
        }
        // A full disk mid-run: the command that continues the run from its last completed step.
        const resume = async (job: { id: string }) => {
          const runId = params.mode === 'resume' ? params.runId : (await call('training.runs', { workspaceId })).find((r) => r.jobId === job.id)?.id
          return runId === undefined ? undefined : ['train', workspaceId, '--resume', String(runId)]
        }
        const done = await runJob(call, services, { kind: 'train.run', workspaceId, params }, { stderr: true, resume })
        const runId = done.kind === 'train.run' && done.result ? done.result.runId : params.mode === 'resume' ? params.runId : (await call('training.runs', { workspaceId }))[0]?.id
        if (done.status !== 'done') {
          const resume = runId !== undefined ? `; resume with: npm run cli -- train ${workspaceId} --resume ${runId}` : ''
          console.error(`${done.status}: ${done.error ?? done.message}${done.status === 'cancelled' ? resume : ''}`)
          if (json()) console.log(JSON.stringify({ status: done.status, error: done.error, runId: runId ?? null }, null, 2))
          process.exitCode = 1
          return
        }
        const detail = await call('training.run', { workspaceId, runId: runId! })
        if (json()) {
          console.log(JSON.stringify({ runId, status: detail.run.status, headlineMetric: detail.run.headlineMetric, goldLevel: detail.run.goldLevel, reward: detail.config.reward, heldOut: detail.heldOut }, null, 2))
          return
        }
        const { metrics } = await call('harness.catalog', {})
        const info = metrics.find((m) => m.name === detail.run.headlineMetric)
        console.log(`Training run #${detail.run.id} "${detail.run.name}": ${detail.run.stepsDone} steps on ${detail.run.goldLevel}-level gold, reward ${Object.entries(detail.config.reward.weights).filter(([, w]) => w !== 0).map(([t, w]) => `${w} × ${t}`).join(' + ')}`)
        console.log(`Held-out ${info?.label ?? detail.run.headlineMetric} (greedy ${detail.config.gguf ? 'GGUF policy' : 'head'}): ${formatMetric(detail.run.heldOutBefore, info)} → ${formatMetric(detail.run.heldOutAfter, info)}  (${detail.heldOut.before?.questions ?? 0} questions)\n`)
        console.log(heldOutTable(detail, metrics))
        console.log(
          detail.config.gguf
            ? `\nRun #${detail.run.id}  (its final weights are registered as a policy model: npm run cli -- model list)`
            : `\nRun #${detail.run.id}  (evaluate its head: npm run cli -- eval ${workspaceId} --env ${detail.config.environment} --policy head --training-run ${detail.run.id} --split <split>)`,
        )
      }),
    )

  cli.program
    .command('export-head <workspaceId> <runId> <file>')
    .description("write a training run's head (at --step, default the last) as a head weights file; evaluate it with eval --policy head-file --head-file <file>")
    .option('--step <k>', 'the completed step whose checkpoint to export')
    .action((workspaceId: string, runId: string, file: string, o: { step?: string }) =>
      withApi(async (call) => {
        const weights = await call('training.exportHead', { workspaceId, runId: int('runId', runId), ...(o.step !== undefined ? { step: int('--step', o.step) } : {}) })
        writeFileSync(file, `${JSON.stringify(weights, null, 1)}\n`)
        cli.print({ file, layout: weights.layout.version, source: weights.source }, `Wrote ${file}: head of run #${runId} (step ${String(weights.source.step)}), feature layout ${weights.layout.version}`)
      }),
    )
}
