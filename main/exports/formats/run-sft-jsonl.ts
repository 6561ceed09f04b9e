import type { ActionShape, ActionSpaceShape } from '../../../preload/contract'
import { getEpisode } from '../../experiments/queries'
import { environmentFactory, environmentNames, promptParams, resolvedConfig, systemPrompt, type Protocol } from '../../harness'
import { menuPromptBody } from '../../policy/llm-policy'
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

/**
 * Supervised fine-tuning data in the chat-messages format: one line per valid step of every episode
 * (system prompt, the rendered observation, the chosen action), with the episode's reward and metrics
 * in `metadata` so a trainer can keep only the good ones (rejection sampling). Steps of training
 * rollouts are rebuilt by replaying their stored actions.
 */
export const runSftJsonl = defineFormat({
  name: 'run-sft-jsonl',
  source: 'run',
  label: 'SFT messages (JSONL)',
  description: 'One chat-messages example per valid step: the rendered prompt and the chosen action, with the episode reward in metadata',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  async write({ raw, out, progress, checkpoint }, { runId }) {
    const run = runOrThrow(raw, runId)
    let rows = 0
    let episodes = 0
    // Pages are read whole (no open statement iterator), so getEpisode may read between them.
    for (const { id } of episodeRecords(raw, runId)) {
      checkpoint()
      const e = await getEpisode(raw, id)
      if (!e) continue
      // An environment no longer registered has no prompt to rebuild: its steps are left out.
      const registered = environmentNames().includes(e.environment)
      const protocol = registered ? environmentFactory(e.environment).protocol : null
      const envConfig = registered ? resolvedConfig(e.environment, e.envConfig) : {}
      for (const s of e.steps) {
        if (!s.info.valid || !protocol) continue
        const messages = [...promptMessages(protocol, envConfig, s.observationText, s.actions), { role: 'assistant' as const, content: actionText(s.action) }]
        out.write(jsonLine({ messages, metadata: { runId, episodeId: e.id, questionId: e.questionId, t: s.t, environment: e.environment, reward: rewardOf(e.metrics), metrics: e.metrics, credit: s.credit } }))
        rows++
      }
      progress(++episodes, run.episodes)
    }
    return rows
  },
})
