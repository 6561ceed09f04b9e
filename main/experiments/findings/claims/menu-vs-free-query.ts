/** Claim 2 (Harness-G main table): the menu beats free query under the same credit on held-out evidence F1. */
import { BASE } from './base'
import { armTable, metricValues, numberAt, row, stepLine } from '../measure'
import { harnessGExperiment, MENU } from './harness-g'
import { pairedEffect } from '../verdict'
import type { ClaimDeclaration } from './types'

export const menuVsFreeQuery: ClaimDeclaration = {
  number: 2,
  name: 'menu-vs-free-query',
  title: 'Menu vs free query under the same credit',
  paper: { source: 'Harness-G Table 1', figure: 'menu above the matched free-query baseline by more than 17 F1 (average F1 55.24 at 3B)' },
  measure: 'held-out evidence F1 (supporting-sentence F1 on sentence gold, else paragraph F1), menu minus free query, both trained with outcome-only credit; answer F1 shown beside it (lexical stand-in unless a GGUF answerer is set)',
  expected: 'positive',
  preconditions: { collapse: ['turns', 'evidence'], moves: { diagnostic: 'reward', label: 'training reward' } },
  // The same matched pair of training runs as claim 1: one ablation serves claims 1-3 (harness-g.ts).
  experiment: harnessGExperiment,
  evaluate: ({ raw, plan, results }) => {
    const free = row(results, BASE)
    const menu = row(results, MENU)
    const metric = plan.evidenceMetric
    const arms = [
      { label: `free query · ${metric}`, values: metricValues(free, metric) },
      { label: `menu · ${metric}`, values: metricValues(menu, metric) },
    ]
    const answers = [
      { label: 'free query · answer F1', values: metricValues(free, 'answer.f1.official') },
      { label: 'menu · answer F1', values: metricValues(menu, 'answer.f1.official') },
    ]
    return {
      effectLabel: `held-out ${metric}, menu − free query`,
      metric,
      effect: pairedEffect(arms[0]!.values, arms[1]!.values),
      arms: [...armTable(arms, arms[0]!.label), ...armTable(answers, answers[0]!.label)],
      compared: [{ label: 'free query', row: BASE, values: arms[0]!.values }, { label: 'menu', row: MENU, values: arms[1]!.values }],
      series: [{ title: 'Training reward', x: 'training step', y: 'reward', lines: [stepLine(raw, free, 'free query', numberAt('reward')), stepLine(raw, menu, 'menu', numberAt('reward'))] }],
      departures: plan.answerer.kind === 'lexical' ? ['answer F1 from the lexical stand-in answerer (no GGUF answerer configured); the effect is on evidence F1'] : [],
    }
  },
}

