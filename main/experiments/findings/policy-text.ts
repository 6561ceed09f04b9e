/**
 * What a claim's experiment trained, in words for its `policy` field: read from the ablation that ran (its
 * training options and the model files it recorded by hash), never from what was asked for alone.
 */
import { basename } from 'node:path'
import type { AblationDetail, FindingsConfig } from '../../../preload/contract'

export function policyText(ablation: AblationDetail, asked: FindingsConfig['policy']): string {
  const t = ablation.config.base.training
  const arms = ablation.resolved.filter((r) => r.kind === 'train').length
  if (!t.gguf) {
    const head = `trained policy head: ${t.steps} step${t.steps === 1 ? '' : 's'} per arm, ${arms} trained arm${arms === 1 ? '' : 's'}`
    return asked === 'gguf' ? `${head} (the GGUF policy was asked for, but this experiment was saved without a GGUF model to train)` : head
  }
  const g = t.gguf
  const recorded = ablation.ranOn?.models.find((m) => m.startsWith(`${g.modelPath} sha256:`))
  const hash = recorded ? recorded.slice(g.modelPath.length + ' sha256:'.length) : 'not recorded yet'
  const tensors = g.lastBlocks === null ? 'every trainable tensor' : `output + last ${g.lastBlocks} blocks`
  const prompt = [g.restateQuestion ? 'the question restated before each reply' : '', g.extractiveQueries ? "free queries decoded as the observation's words" : ''].filter(Boolean)
  return `GGUF policy ${basename(g.modelPath)} (sha256 ${hash}): its own weights trained ${t.steps} step${t.steps === 1 ? '' : 's'} per arm (${g.optimizer} lr ${g.learningRate}, KL coef ${g.klCoef}, KL target ${g.klTarget || 'off'}, ${tensors}, ${t.questionsPerStep} questions x ${t.groupSize} rollouts per step${prompt.length ? `; ${prompt.join(', ')}` : ''}) in ${arms} trained arm${arms === 1 ? '' : 's'}; each arm evaluated greedily from its own trained weights`
}
