/**
 * `reproduce`: the papers' claims on a workspace's own questions as one findings.run job (progress on
 * stderr; Ctrl-C cancels and `--resume <id>` continues from the finished cells), then one verdict line
 * per claim and the report written into the workspace's exports folder.
 */
import { resolve } from 'node:path'
import type { RouteInput } from '../../preload/contract'
import { verdictLine } from '../experiments/findings'
import type { Cli } from './context'
import { jsonObjectOption } from './json-option'

const int = (name: string, text: string): number => {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got "${text}"`)
  return n
}

function ggufOptions(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {}
  return jsonObjectOption(() => text, {
    unreadable: (reason) => `--gguf-options: ${reason}`,
    notObject: '--gguf-options must be a JSON object of GGUF training options (learningRate, contextSize, maxTokens, lastBlocks, optimizer, epochs)',
  })
}

export function registerReproduceCommands(cli: Cli): void {
  const { withApi, json, runJob } = cli
  cli.program
    .command('reproduce')
    .description("run the papers' five claims on the workspace's questions (one job), print a verdict line per claim and write the report")
    .argument('<workspaceId>')
    .option('--set <id>', 'question set id (default: the first set)')
    .option('--policy <head|gguf>', "policy every training arm trains: the policy head, or (gguf) the --model file's own weights through the native trainer; each claim says exactly what ran", 'head')
    .option('--model <path>', 'with --policy gguf: the F32 GGUF model to train (quantised models are refused before anything runs)')
    .option('--gguf-options <json>', 'with --policy gguf: GGUF training options as JSON, e.g. \'{"contextSize":2048,"learningRate":0.0005}\' (Harness-1 prompts need a larger context than the default 512)')
    .option('--seeds <n>', "seeds per cell (default: the budget's)")
    .option('--claims <list>', 'the claims to run, by number, e.g. 1,2 (default: all five)')
    .option('--budget <quick|full>', 'quick: minutes on the demo world; full: the papers\' protocol as far as the machine allows', 'quick')
    .option('--answerer <lexical|path>', 'lexical stand-in, or a GGUF model path', 'lexical')
    .option('--steps <n>', "training steps per arm instead of the budget's (listed as a departure)")
    .option('--held-out <n>', "held-out questions instead of the budget's (listed as a departure)")
    .option('--group-size <n>', "rollouts per group instead of the budget's (listed as a departure)")
    .option('--questions-per-step <n>', "questions per training step instead of the budget's (listed as a departure)")
    .option('--single-mechanisms', "claim 4: also train each Harness-1 mechanism switched off alone (8 more Harness-1 arms per seed; listed as a departure)")
    .option('--resume <id>', 'continue a cancelled or failed findings run from its finished cells')
    .action((workspaceId: string, o: Record<string, string | undefined>) =>
      withApi(async (call, services) => {
        let id: number
        if (o.resume !== undefined) {
          id = int('--resume', o.resume)
        } else {
          if (o.budget !== 'quick' && o.budget !== 'full') throw new Error(`--budget must be quick or full, got "${o.budget}"`)
          if (o.policy !== 'head' && o.policy !== 'gguf') throw new Error(`--policy must be head or gguf, got "${o.policy}"`)
          if (o.policy === 'gguf' && o.model === undefined) throw new Error('--policy gguf needs --model <path>: the F32 GGUF model whose weights the training arms train')
          if (o.policy === 'head' && (o.model !== undefined || o.ggufOptions !== undefined)) throw new Error('--model and --gguf-options are for --policy gguf (the head policy trains no model file)')
          const sets = await call('questions.sets', { workspaceId })
          const setId = o.set !== undefined ? int('--set', o.set) : sets[0]?.id
          if (setId === undefined) throw new Error('This workspace has no question set: import or generate questions first')
          const config: RouteInput<'findings.save'>['config'] = {
            questionSetId: setId,
            policy: o.policy,
            ...(o.model !== undefined ? { gguf: { ...ggufOptions(o.ggufOptions), modelPath: resolve(o.model) } } : {}),
            budget: o.budget,
            answerer: o.answerer === 'lexical' || o.answerer === undefined ? { kind: 'lexical' } : { kind: 'gguf', modelPath: o.answerer },
            ...(o.seeds !== undefined ? { seeds: int('--seeds', o.seeds) } : {}),
            ...(o.claims !== undefined ? { claims: o.claims.split(',').map((n) => int('--claims', n.trim())) } : {}),
            overrides: {
              ...(o.steps !== undefined ? { steps: int('--steps', o.steps) } : {}),
              ...(o.heldOut !== undefined ? { heldOut: int('--held-out', o.heldOut) } : {}),
              ...(o.groupSize !== undefined ? { groupSize: int('--group-size', o.groupSize) } : {}),
              ...(o.questionsPerStep !== undefined ? { questionsPerStep: int('--questions-per-step', o.questionsPerStep) } : {}),
              ...(o.singleMechanisms !== undefined ? { singleMechanisms: true } : {}),
            },
          }
          id = (await call('findings.save', { workspaceId, config })).id
          console.error(`Findings run #${id} saved`)
        }
        const findingsId = id
        const done = await runJob(call, services, { kind: 'findings.run', workspaceId, params: { findingsId } }, { stderr: true, resume: async () => ['reproduce', workspaceId, '--resume', String(findingsId)] })
        if (done.status !== 'done') {
          console.error(`${done.status}: ${done.error ?? done.message}; resume with: npm run cli -- reproduce ${workspaceId} --resume ${id}`)
          if (json()) console.log(JSON.stringify({ status: done.status, error: done.error, findingsId: id }, null, 2))
          process.exitCode = 1
          return
        }
        const detail = await call('findings.get', { workspaceId, id })
        const report = await call('findings.export', { workspaceId, id })
        if (json()) {
          console.log(JSON.stringify({ findingsId: id, ranOn: detail.ranOn, claims: detail.results?.claims ?? [], report }, null, 2))
          return
        }
        for (const c of detail.results?.claims ?? []) console.log(verdictLine(c))
        console.log(`\nReport: ${report.files[0]} (${report.files.length} files in ${report.folder})`)
      }),
    )
}
