/**
 * The head's supervised warm start before RL (TrainConfig.warmStart): the scripted teacher plays each train
 * question once (greedily, with the environment's own settings; the oracle plans through a twin), the
 * head's candidates of each decision are recorded with the teacher's choice among them (TeacherRecorder),
 * and the head is fitted to those choices by cross-entropy (rl/trainer imitate). Each DAgger round then lets
 * the head play every train question and the teacher label the states it reaches, and refits on all labels.
 * Seeded by the run seed, so a run that stopped before its first step warm-starts again to the same weights.
 */
import type SQLite from 'better-sqlite3'
import type { WarmStartReport } from '../../../preload/contract'
import { runEpisode, type Environment } from '../../harness'
import type { PolicyHead } from '../../policy/head'
import { TeacherRecorder, type CandidateBuilder, type ImitationSample, type PriorProvider } from '../../policy/head-policy'
import { createScriptedPolicy } from '../../policy/scripted'
import { imitate, type TrainConfig } from '../../rl/trainer'
import { scriptedPolicyFor } from '../scripted-policy'
import type { StoredQuestion } from '../questions'

export type { WarmStartReport }

export interface WarmStartSetup {
  raw: SQLite.Database
  config: TrainConfig
  env: Environment
  head: PolicyHead
  builder: CandidateBuilder
  train: StoredQuestion[]
  prior?: PriorProvider
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
}

/** The seed of the teacher's episode on a train question (its own stream: no RL rollout shares it). */
const teacherSeed = (seed: number, rowId: number): number => ((seed * 2_654_435_761) ^ (rowId * 40_503) ^ 0x5741524d) >>> 0

export async function warmStartHead({ raw, config, env, head, builder, train, prior, progress, throwIfCancelled }: WarmStartSetup): Promise<WarmStartReport> {
  const ws = config.warmStart
  if (!ws) throw new Error('warmStartHead needs config.warmStart')
  const questions = ws.questions > 0 ? train.slice(0, ws.questions) : train
  const samples: ImitationSample[] = []
  let decisions = 0
  let unmatched = 0
  let stats: ReturnType<typeof imitate> | null = null
  for (let round = 0; round <= ws.rounds; round++) {
    // Round 0: the teacher plays (the oracle with its look-ahead); then the head plays and the teacher's rules label.
    const teacher = round === 0 ? scriptedPolicyFor(ws.teacher, config.environment, raw, config.envConfig) : createScriptedPolicy(ws.teacher, builder.protocol)
    const recorder = new TeacherRecorder(teacher, builder, { ...(prior ? { prior } : {}), ...(round > 0 ? { student: { head, temperature: config.temperature } } : {}) })
    const who = round === 0 ? ws.teacher : `the head (round ${round}/${ws.rounds}, labelled by ${ws.teacher})`
    for (const [i, q] of questions.entries()) {
      throwIfCancelled()
      if (i % 25 === 0) progress(0, 'warm start', `Warm start: ${who} plays train question ${i + 1}/${questions.length}`)
      await runEpisode(env, recorder, q, teacherSeed(config.seed + round, q.rowId), { snapshots: false })
    }
    samples.push(...recorder.samples)
    decisions += recorder.decisions
    unmatched += recorder.unmatched
    throwIfCancelled()
    progress(0, 'warm start', `Warm start: fitting the head to ${samples.length} of ${ws.teacher}'s decisions`)
    stats = imitate(head, samples, { epochs: ws.epochs, learningRate: ws.learningRate, batchSize: ws.batchSize, gradClip: config.gradClip, temperature: config.temperature, seed: config.seed + round })
  }
  return {
    teacher: ws.teacher,
    questions: questions.length,
    rounds: ws.rounds,
    decisions,
    unmatched,
    samples: samples.length,
    epochs: ws.epochs,
    epochLoss: stats!.epochLoss,
    finalLoss: stats!.finalLoss,
    agreementBefore: stats!.agreementBefore,
    agreementAfter: stats!.agreementAfter,
  }
}
