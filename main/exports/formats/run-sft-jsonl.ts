import { RewardConfigSchema, type ActionShape, type ActionSpaceShape } from '../../../preload/contract'
import { episodeColumns } from '../../db/episode-columns'
import { getEpisode } from '../../experiments/runs/read-model'
import { runStore } from '../../experiments/runs/store'
import { environmentFactory, environmentNames, promptParams, resolvedConfig, systemPrompt, type Protocol } from '../../harness'
import { menuPromptBody } from '../../policy/llm-policy'
import { computeReward, protocolDefaultReward, goldProfile, type RewardConfig } from '../../rl/reward-schemes'
import type { WorkspaceHandle } from '../../corpus/repository'
import { defineFormat, jsonLine } from '../format'
import { episodeRecords, rewardOf, runOrThrow } from '../run-episodes'

type Message = { role: 'system' | 'user' | 'assistant'; content: string }

/**
 * The system and user messages the app's LLM policies send for a step (the protocol's system prompt
 * with the run's own environment config, the same menu rendering), so a model fine-tuned on these sees
 * at training time what it sees here.
 */
export function promptMessages(protocol: Protocol, envConfig: Record<string, unknown>, observationText: string, actions: ActionSpaceShape): Message[] {
  const system = systemPrompt(protocol, promptParams(protocol, envConfig), actions.kind === 'tools' ? actions.tools : [])
  return [{ role: 'system', content: system }, { role: 'user', content: actions.kind === 'menu' ? menuPromptBody(observationText, actions.items) : observationText }]
}

/** The assistant turn for the chosen action: the menu id, the tool call as JSON, or the raw text. */
export function actionText(action: ActionShape): string {
  if (action.kind === 'menu') return action.id
  if (action.kind === 'tool') return JSON.stringify({ name: action.name, arguments: action.arguments })
  return action.text
}

/** The reward a run names (training runs, and episodes stored by the environment server), or null. */
function runReward(raw: WorkspaceHandle, runId: number): RewardConfig | null {
  const text = runStore(raw).runConfig(runId)
  const named = text === undefined ? undefined : (JSON.parse(text) as { reward?: unknown }).reward
  const parsed = RewardConfigSchema.safeParse(named)
  return parsed.success ? parsed.data : null
}

/**
 * Supervised fine-tuning data in the chat-messages format: one line per valid step of every episode
 * (system prompt, the rendered observation, the chosen action), with the episode's reward and metrics
 * in `metadata` so a trainer can keep only the good ones (rejection sampling). The reward is the one stored
 * with the episode (a training rollout's, Harness-1's), else the run's reward, else the environment family's
 * default for the question's gold (SP F1 on sentence gold for Harness-G) computed on its metrics. Steps of training
 * rollouts are rebuilt by replaying their stored actions.
 */
export const runSftJsonl = defineFormat({
  name: 'run-sft-jsonl',
  source: 'run',
  label: 'SFT messages (JSONL)',
  description: 'One chat-messages example per valid step: the rendered prompt and the chosen action, with the episode reward in metadata',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  async write({ raw, out, progress, checkpoint }, { runId, split }) {
    const run = runOrThrow(raw, runId, split)
    const named = runReward(raw, runId)
    let rows = 0
    let episodes = 0
    // Pages are read whole (no open statement iterator), so getEpisode may read between them.
    for (const { id, gold_json } of episodeRecords(raw, runId, split)) {
      checkpoint()
      const e = await getEpisode(raw, id)
      if (!e) continue
      // An environment no longer registered has no prompt to rebuild: its steps are left out.
      const registered = environmentNames().includes(e.environment)
      const factory = registered ? environmentFactory(e.environment) : null
      const protocol = factory?.protocol ?? null
      const envConfig = registered ? resolvedConfig(e.environment, e.envConfig) : {}
      const computed = factory && computeReward(e.metrics, named ?? protocolDefaultReward(factory.protocol, goldProfile([episodeColumns.gold.read(gold_json)])))
      // A reward whose terms the stored metrics cannot feed is unknown, not zero.
      const reward = rewardOf(e.metrics) ?? (computed && computed.missing.length === 0 ? computed.total : null)
      for (const s of e.steps) {
        if (!s.info.valid || !protocol) continue
        const messages = [...promptMessages(protocol, envConfig, s.observationText, s.actions), { role: 'assistant' as const, content: actionText(s.action) }]
        out.write(jsonLine({ messages, metadata: { runId, episodeId: e.id, questionId: e.questionId, t: s.t, environment: e.environment, reward, metrics: e.metrics, credit: s.credit } }))
        rows++
      }
      progress(++episodes, run.episodes)
    }
    return rows
  },
})
