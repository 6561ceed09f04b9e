/**
 * Training rollouts are stored compactly (actions, log-probabilities, credit and advantages, deflated
 * JSON); the full steps are rebuilt by replaying them (replay.ts). The codec lives with the runs so that
 * the read side decodes a rollout without reaching into the training room.
 */
import { deflateSync, inflateSync } from 'node:zlib'
import type { z } from 'zod'
import { CompactStepSchema, runColumns } from './run-columns'

/** One stored rollout step: enough to replay the episode exactly and to show its credit. */
export type CompactStep = z.infer<typeof CompactStepSchema>

export const encodeSteps = (steps: CompactStep[]): Buffer => deflateSync(Buffer.from(JSON.stringify(steps)))
export const decodeSteps = (blob: Uint8Array): CompactStep[] => runColumns.compactSteps.read(inflateSync(blob).toString('utf8'))
