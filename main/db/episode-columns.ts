/**
 * The JSON columns of episodes and episode_steps (main/db/schema.ts), each with its schema and codec:
 * the run stores, the exports, the question pages and the training replays read them through these, so
 * a stored episode has one shape everywhere and bad stored JSON names its column.
 */
import { z } from 'zod'
import { ActionSchema, ActionSpaceSchema, DecisionSchema, EpisodeOutcomeSchema, PreviewSchema, StepInfoSchema } from '../../preload/contract/trajectory'
import { jsonColumn, MetricValues, StringList } from './json-column'

/** The gold an episode was scored against, as stored with it. */
export const EpisodeGold = z.object({
  answers: StringList,
  supportingFacts: z.array(z.object({ title: z.string(), sentence: z.number() })).default([]),
  supportingDocs: StringList.default([]),
})

export const episodeColumns = {
  gold: jsonColumn('episodes.gold_json', EpisodeGold),
  outcome: jsonColumn('episodes.outcome_json', EpisodeOutcomeSchema),
  metrics: jsonColumn('episodes.metrics_json', MetricValues),
  initialSnapshot: jsonColumn('episodes.initial_snapshot_json', z.unknown()),
}

export const stepColumns = {
  actions: jsonColumn('episode_steps.actions_json', ActionSpaceSchema),
  previews: jsonColumn('episode_steps.previews_json', z.record(z.string(), PreviewSchema.nullable())),
  action: jsonColumn('episode_steps.action_json', ActionSchema),
  decision: jsonColumn('episode_steps.decision_json', DecisionSchema),
  info: jsonColumn('episode_steps.info_json', StepInfoSchema),
  snapshot: jsonColumn('episode_steps.snapshot_json', z.unknown()),
}
