/**
 * The one training-config resolver. A config parsed at its border (the API and the CLI through the
 * dispatcher, a stored run by its reader) is resolved by `resolveParsedTrainConfig`; a config built in code (an
 * ablation cell, a test, a bench) is parsed and resolved by `resolveTrainConfig`. One set of rules: the choices a saved config also gets
 * (`checkTrainChoices`: registry names, what the environment can feed the credit scheme, the loss's
 * declared bounds, the reward) and, for a run, its splits and the gold they hold. Capabilities come from
 * the declarations (a credit scheme's `needsPreviews`, the previews and action kind of an environment's
 * protocol), never from a name.
 */
import { existsSync } from 'node:fs'
import type SQLite from 'better-sqlite3'
import { creditFits, defaultReward, HeadWarmStartSchema, protocolTrainingDefaults, rewardFamilyOf, TrainConfigRequestSchema, type SavedTrainConfig, type TrainConfig, type TrainConfigRequest, type TrainConfigRequestInput, type ProtocolTrainingDefaults, PROTOCOL_NAMES } from '../../../../preload/contract'
import { createEnvironment, environmentContext, environmentFactory, protocolDeclaration } from '../../../harness'
import { candidateBuilder } from '../../../policy/protocols'
import { createScriptedPolicy } from '../../../policy/scripted'
import { creditSchemes } from '../../../rl/credit'
import { estimators } from '../../../rl/estimators'
import { checkLossConfig } from '../../../rl/losses'
import { checkRewardConfig, checkRewardFits, defaultRewardPreset } from '../../../rl/reward-schemes'
import { resolveHarness1Weights } from '../../../rl/rewards'
import { checkSplits } from '../../../rl/trainer'
import { describeRange, loadQuestions, splitGoldProfile } from '../../questions'
import { ggufPolicyKind } from './gguf-policy'

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Runs `fn`, prefixing the area to the message of what it throws ("Loss: the dual clip C must exceed 1 ..."). */
function check(what: string, fn: () => unknown): void {
  try {
    fn()
  } catch (err) {
    throw new Error(`${what}: ${messageOf(err)}`)
  }
}

/** The rules every training config meets, saved or run; throws the first problem, prefixed by its area. */
export function checkTrainChoices(raw: SQLite.Database, config: SavedTrainConfig): void {
  check('Environment', () => {
    const factory = environmentFactory(config.environment)
    candidateBuilder(factory.protocol)
    createEnvironment(config.environment, environmentContext(raw), config.envConfig)
  })
  const factory = environmentFactory(config.environment)
  check('Credit', () => {
    if (!creditFits(creditSchemes.get(config.credit.scheme).capabilities, factory.protocol)) {
      throw new Error(`"${config.credit.scheme}" reads menu previews; ${config.environment} has none: use "${protocolTrainingDefaults(factory.protocol).credit}", its default`)
    }
  })
  check('Estimator', () => estimators.get(config.estimator))
  check('Loss', () => checkLossConfig(config.loss))
  check('Reward', () => {
    checkRewardConfig(config.reward)
    resolveHarness1Weights(config.reward.harness1Weights)
  })
  check('Prior', () => {
    if (config.prior && protocolDeclaration(factory.protocol).actionKind !== 'menu') throw new Error(`An LLM prior scores menu ids; ${config.environment} has no menu: train without a prior`)
  })
  check('GGUF', () => {
    if (config.gguf) ggufPolicyKind(config.environment, factory.protocol)
  })
  check('Teacher', () => {
    // createScriptedPolicy names the policies that speak the protocol when this one does not.
    if (config.gguf?.teacher) createScriptedPolicy(config.gguf.teacher, factory.protocol)
  })
  check('Warm start', () => {
    if (!config.warmStart) return
    if (config.gguf) throw new Error('The warm start is the head\'s; a GGUF run imitates a teacher through its own "teacher" option')
    createScriptedPolicy(config.warmStart.teacher, factory.protocol)
  })
}

/**
 * Checks a parsed training config for a run: the choices above, then the model files, overlapping or
 * empty splits and a reward the train questions' gold cannot feed, all before anything runs. A config that
 * names no reward gets the default for the train questions' gold level. Nothing is parsed here: the
 * train.run preflight calls it with the dispatcher's parse and stores what it returns for the worker.
 */
export function resolveParsedTrainConfig(raw: SQLite.Database, request: TrainConfigRequest): TrainConfig {
  // Left out, reward, credit and estimator are the protocol's: the reward for the train questions' gold level
  // (Harness-1's published reward on the Harness-1 tools), SNC where the environment previews its actions, else outcome.
  const defaults = trainingDefaultsFor(request.environment)
  const family = rewardFamilyOf(defaults)
  // The reward must be computable on the train questions.
  const gold = splitGoldProfile(raw, request.train)
  const reward = request.reward ?? (gold.questions > 0 ? structuredClone(defaultRewardPreset(gold, family).config) : defaultReward())
  const credit = request.credit ?? { scheme: defaults.credit, lambda: defaults.lambda }
  // Left out, the head's warm start is the protocol's (a GGUF run warm-starts through gguf.teacher instead).
  const warmStart = request.warmStart !== undefined ? request.warmStart : request.gguf ? null : defaultWarmStartFor(request.environment)
  const config: TrainConfig = { ...request, reward, credit, estimator: request.estimator ?? defaults.estimator, warmStart }
  if (gold.questions > 0) checkRewardFits(config.reward, gold, describeRange('train', config.train), family)
  checkTrainChoices(raw, config)
  if (config.gguf && !existsSync(config.gguf.modelPath)) throw new Error(`No GGUF model file at ${config.gguf.modelPath}`)
  if (config.prior && !existsSync(config.prior.modelPath)) throw new Error(`No prior model file at ${config.prior.modelPath}`)
  checkSplits(config)
  for (const [label, split] of [['train', config.train], ['held-out', config.heldOut]] as const) {
    if (loadQuestions(raw, { ...split, limit: 1 }).length === 0) throw new Error(`The ${label} split of question set ${split.questionSetId}${split.split !== undefined ? ` (split ${split.split})` : ''} has no questions from offset ${split.offset}`)
  }
  return config
}

/** The choices a run on `environment` gets when it leaves them open: its protocol's (the contract's table). */
export function trainingDefaultsFor(environment: string): ProtocolTrainingDefaults {
  try {
    return protocolTrainingDefaults(environmentFactory(environment).protocol)
  } catch {
    // An unknown environment: checkTrainChoices names it; until then the choices of the first protocol stand in.
    return protocolTrainingDefaults(PROTOCOL_NAMES[0])
  }
}

/** The environment's default warm start of the head: its protocol's teacher with the schema's options, or null. */
export function defaultWarmStartFor(environment: string): TrainConfig['warmStart'] {
  const teacher = trainingDefaultsFor(environment).warmStartTeacher
  return teacher ? HeadWarmStartSchema.parse({ teacher }) : null
}

/** Parses a training config built in code (an ablation cell, a test, a bench) and resolves it as above. */
export function resolveTrainConfig(raw: SQLite.Database, input: TrainConfigRequestInput): TrainConfig {
  return resolveParsedTrainConfig(raw, TrainConfigRequestSchema.parse(input))
}
