import type { RouteInput } from '../../preload/contract'
import type { Cli } from './context'
import { jsonObjectOption } from './json-option'
import { aggregateTable, wallClockLine } from './table'
import { SCRIPTED_POLICY_NAMES } from '../policy/scripted'

type EvalParams = Extract<RouteInput<'job.start'>, { kind: 'eval.run' }>['params']

function parseDelta(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {}
  return jsonObjectOption(() => text, {
    unreadable: (reason) => `--config is not JSON: ${reason} (example: --config '{"maxTurns": 4}')`,
    notObject: '--config must be a JSON object: a config delta over the environment defaults',
  })
}

const int = (name: string, text: string): number => {
  const n = Number(text)
  if (!Number.isInteger(n)) throw new Error(`${name} must be a whole number, got "${text}"`)
  return n
}

/**
 * `eval`: the same eval.run job the Runs page starts (same parameters, same validation), its progress
 * printed as it runs, then the run's aggregates as the Runs page reads them (runs.list).
 */
/** --policy-model's prompt options, as a GGUF run's evaluation sets them. */
function llmOptions(o: Record<string, string | boolean | undefined>): { contextSize?: number; maxTokens?: number; restateQuestion?: true; extractiveQueries?: true } {
  return {
    ...(o.contextSize !== undefined ? { contextSize: int('--context-size', String(o.contextSize)) } : {}),
    ...(o.maxTokens !== undefined ? { maxTokens: int('--max-tokens', String(o.maxTokens)) } : {}),
    ...(o.restateQuestion === true ? { restateQuestion: true as const } : {}),
    ...(o.extractiveQueries === true ? { extractiveQueries: true as const } : {}),
  }
}

export function registerEvalCommands(cli: Cli): void {
  const { withApi, print, json, runJob } = cli
  cli.program
    .command('eval <workspaceId>')
    .description('evaluate a policy under an environment config on a question split; prints progress and the aggregate table')
    .requiredOption('--env <name>', 'environment: graph-menu | free-query | stateful | transcript')
    .option('--preset <name>', "one of the environment's presets (an ablation row), applied before --config")
    .option('--config <json>', 'config delta over the defaults, as a JSON object')
    .option('--policy <name>', `scripted policy: ${SCRIPTED_POLICY_NAMES.join(' | ')}; or head / gguf-run (with --training-run: its trained head or GGUF weights), head-file (with --head-file)`)
    .option('--training-run <id>', 'with --policy head or gguf-run: the training run whose head or GGUF weights to evaluate (greedy)')
    .option('--step <k>', 'with --policy head or gguf-run: the completed step whose checkpoint to use (default: the last)')
    .option('--head-file <file>', 'with --policy head-file: a head weights file (export-head writes one)')
    .option('--policy-model <path>', 'a GGUF model as the policy (instead of --policy)')
    .option('--temperature <t>', 'LLM policy sampling temperature', '0')
    .option('--context-size <n>', "with --policy-model: the policy's context in tokens (default: the model's training length)")
    .option('--max-tokens <n>', 'with --policy-model: most tokens per tool call (default 256)')
    .option('--extractive-queries', 'with --policy-model on free-query: decode each query as words of the observation (as a GGUF run trained with extractiveQueries wrote them)')
    .option('--restate-question', 'with --policy-model: repeat the question right before the reply (as a GGUF run trained with restateQuestion saw it)')
    .option('--answerer <lexical|path>', 'lexical stand-in, or a GGUF model path', 'lexical')
    .option('--set <id>', 'question set id (default: the first set)')
    .option('--split <name>', 'a stored split of the set (train / dev / test)')
    .option('--offset <n>', 'first question of the split', '0')
    .option('--limit <n>', 'questions', '50')
    .option('--seed <n>', 'run seed', '1')
    .option('--name <name>', 'run name')
    .option('--no-previews', 'do not compute menu previews')
    .action((workspaceId: string, o: Record<string, string | boolean | undefined>) =>
      withApi(async (call, services) => {
        const catalog = await call('harness.catalog', {})
        const env = catalog.environments.find((e) => e.name === o.env)
        if (!env) throw new Error(`Unknown environment "${String(o.env)}": one of ${catalog.environments.map((e) => e.name).join(', ')}`)
        let delta: Record<string, unknown> = {}
        if (o.preset !== undefined) {
          const preset = env.presets.find((p) => p.name === o.preset)
          if (!preset) throw new Error(`${env.name} has no preset "${String(o.preset)}": one of ${env.presets.map((p) => p.name).join(', ') || 'none'}`)
          delta = { ...preset.delta }
        }
        delta = { ...delta, ...parseDelta(o.config as string | undefined) }
        if (o.policy && o.policyModel) throw new Error('give --policy or --policy-model, not both')
        const trained = o.policy === 'head' || o.policy === 'gguf-run'
        if (!trained && (o.trainingRun !== undefined || o.step !== undefined)) throw new Error('--training-run and --step go with --policy head or gguf-run')
        let policy: EvalParams['policy']
        if (trained) {
          if (o.trainingRun === undefined) throw new Error(`--policy ${String(o.policy)} needs --training-run <id>: the training run whose ${o.policy === 'head' ? 'head' : 'GGUF weights'} to evaluate`)
          policy = { kind: o.policy === 'head' ? 'head' : 'gguf-run', trainingRun: int('--training-run', String(o.trainingRun)), ...(o.step !== undefined ? { step: int('--step', String(o.step)) } : {}) }
        } else if (o.policy === 'head-file') {
          if (o.headFile === undefined) throw new Error('--policy head-file needs --head-file <file>')
          policy = { kind: 'head-file', path: String(o.headFile) }
        } else {
          policy = o.policyModel
            ? { kind: 'llm', modelPath: String(o.policyModel), temperature: Number(o.temperature), ...llmOptions(o) }
            : { kind: 'scripted', name: String(o.policy ?? catalog.scriptedPolicies.find((p) => p.protocols.includes(env.protocol))?.name ?? 'greedy') }
        }
        const answerer: EvalParams['answerer'] = o.answerer === 'lexical' ? { kind: 'lexical' } : { kind: 'gguf', modelPath: String(o.answerer) }
        const sets = await call('questions.sets', { workspaceId })
        const questionSetId = o.set !== undefined ? int('--set', String(o.set)) : sets[0]?.id
        if (questionSetId === undefined) throw new Error('This workspace has no question set: import or generate questions first')
        const params: EvalParams = {
          environment: env.name,
          envConfig: delta,
          policy,
          answerer,
          questionSetId,
          ...(o.split !== undefined ? { split: String(o.split) } : {}),
          offset: int('--offset', String(o.offset)),
          limit: int('--limit', String(o.limit)),
          seed: int('--seed', String(o.seed)),
          previews: o.previews !== false,
          ...(o.name !== undefined ? { name: String(o.name) } : {}),
        }
        const done = await runJob(call, services, { kind: 'eval.run', workspaceId, params })
        if (done.status !== 'done' || done.kind !== 'eval.run' || !done.result) {
          print(done, `${done.status}: ${done.error ?? done.message}`)
          process.exitCode = 1
          return
        }
        const run = (await call('runs.list', { workspaceId })).find((r) => r.id === done.result!.runId)
        if (!run) throw new Error(`Run #${done.result.runId} is not listed`)
        if (json()) return print(run, '')
        console.log(`\nRun #${run.id} "${run.name}": ${run.episodes} episodes, ${done.result.seconds.toFixed(1)} s`)
        console.log(aggregateTable(run, catalog.metrics))
        const guards = wallClockLine(run)
        if (guards) console.log(guards)
      }),
    )
}
