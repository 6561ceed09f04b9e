import type { Action } from '../../harness'
import { decodeSteps } from '../../experiments/runs/rollout-codec'
import { getEpisode } from '../../experiments/runs/read-model'
import { episodeColumns } from '../../db/episode-columns'
import { defineFormat, jsonLine } from '../format'
import { episodeRecords, resultOf, rewardOf, runOrThrow } from '../run-episodes'

interface ExportedStep {
  t: number
  action: Action
  valid: boolean | null
  formatError: string | null
  summary: string | null
  logprob: number | null
  raw: string | null
  /** Training rollouts: the credit the step received and the advantage it was trained with. */
  credit: { total: number; frontier: number; enablement: number; gain: number } | null
  advantage: number | null
}

/**
 * A run's episodes with their steps as JSON lines: actions, validity, log-probabilities, the episode's
 * reward and its components, and per-step credit. Training rollouts are read from their compact stored
 * steps (actions, log-probabilities, credit, advantages) without replaying them.
 */
export const runEpisodesJsonl = defineFormat({
  name: 'run-episodes-jsonl',
  source: 'run',
  label: 'Episodes with steps (JSONL)',
  description: 'One JSON object per episode: outcome, reward and components, and each step with its action, log-probability and credit',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  async write({ raw, out, progress, checkpoint }, { runId, split }) {
    const run = runOrThrow(raw, runId, split)
    let rows = 0
    // Pages are read whole (no open statement iterator), so getEpisode may read between them.
    for (const record of episodeRecords(raw, runId, split)) {
      let steps: ExportedStep[]
      if (record.steps_blob) {
        steps = decodeSteps(record.steps_blob).map((s, t) => ({
          t, action: s.action, valid: null, formatError: null, summary: null, logprob: s.logprob, raw: null, credit: s.credit, advantage: s.advantage,
        }))
      } else {
        // Evaluation episodes through the one episode reader, whatever their storage (rows or compact).
        const episode = await getEpisode(raw, record.id)
        steps = (episode?.steps ?? []).map((s) => ({
          t: s.t, action: s.action, valid: s.info.valid, formatError: s.info.formatError ?? null, summary: s.info.summary,
          logprob: s.decision.logprob ?? null, raw: s.decision.raw ?? null, credit: null, advantage: null,
        }))
      }
      const result = resultOf(record)
      const components = Object.fromEntries(Object.entries(result.metrics).filter(([k]) => k.startsWith('train.reward.') || (k.startsWith('reward.') && k !== 'reward.total')))
      const outcome = episodeColumns.outcome.read(record.outcome_json)
      const gold = episodeColumns.gold.read(record.gold_json)
      out.write(jsonLine({
        ...result, runKind: run.kind, supportingFacts: gold.supportingFacts ?? [], supportingDocs: gold.supportingDocs ?? [],
        reward: rewardOf(result.metrics), rewardComponents: components, evidence: outcome.evidence, seen: outcome.seen, toolsUsed: outcome.toolsUsed ?? [], steps,
      }))
      if (++rows % 50 === 0) {
        checkpoint()
        progress(rows, run.episodes)
      }
    }
    return rows
  },
})
