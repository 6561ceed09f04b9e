/**
 * The charts of a GGUF warm start (the model imitates a scripted teacher): the imitation loss is drawn,
 * the reward is named as the teacher's, and the RL-only charts (advantage groups, retrieval classes) are
 * left out; an RL run of the same steps keeps them and has no imitation loss.
 */
import { mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import type { TrainStepDiagnostics } from '../../preload/contract'
import TrainingCharts from '../../renderer/src/components/training/TrainingCharts.vue'

const step = (n: number): TrainStepDiagnostics => ({
  step: n, reward: 0.5, components: { 'sp.f1': 0.3, 'sp.allGold': 0.2 }, advantageMean: 0, advantageStd: 0, zeroAdvantageRate: 0, allCorrectRate: 0, allWrongRate: 0,
  equivalenceClasses: 1, spanningGroups: 0, queryDiversity: 1, actionMix: { search: 0.5, answer: 0.5 }, turns: 2, evidence: 1, loss: 3 - n, gradNorm: 1, entropy: 2,
  clippedFraction: 0, keptGroups: 16, creditScale: 1, seconds: 60, heldOutSeconds: null, heldOut: null, rollouts: 16, klToBase: 1 + n, klWarning: null, tokensTrained: 2000, secondsPerUpdate: 50,
  learningRate: 0.003, stepScale: 1, warmStart: null,
})

const charts = (teacher: string | null) => {
  const w = mount(TrainingCharts, {
    props: { steps: [0, 1, 2].map(step), totalSteps: 3, headline: 'sp.f1', finalHeldOut: null, gguf: true, teacher },
    global: { plugins: [createPinia()] },
  })
  const names = w.findAll('figure[data-test^=chart-]').map((f) => f.attributes('data-test')!.replace('chart-', ''))
  const title = (name: string) => w.get(`[data-test=chart-${name}] figcaption`).text()
  return { w, names, title }
}

describe('training charts of a warm start', () => {
  it('draws the imitation loss and the teacher\'s reward, without the RL-only charts', () => {
    const { w, names, title } = charts('search-first')
    expect(names).toEqual(['held-out', 'imitation-loss', 'reward', 'entropy', 'grad-norm', 'kl-to-base', 'seconds-per-update', 'learning-rate'])
    expect(title('imitation-loss')).toBe("Imitation loss: cross-entropy per reply token of search-first's choices")
    expect(w.findAll('[data-test=chart-imitation-loss] circle').length).toBe(3)
    expect(title('reward')).toBe("Reward of search-first's rollouts (the demonstrations, not the model's own play)")
  })

  it('an RL run keeps its group and retrieval-class charts and has no imitation loss', () => {
    const { names, title } = charts(null)
    expect(names).toEqual(['held-out', 'reward', 'zero-advantage', 'equivalence', 'spanning', 'entropy', 'grad-norm', 'kl-to-base', 'seconds-per-update', 'learning-rate'])
    expect(title('reward')).toBe('Reward: mean and components')
  })
})
