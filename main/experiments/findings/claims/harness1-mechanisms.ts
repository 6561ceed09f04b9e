/**
 * Claim 4 (Harness-1 ablation table): each working-memory mechanism switched off lowers recall of a
 * trained policy, all off lowers it most; the scripted tool policy is a reference row.
 */
import { BASE } from './base'
import { ALL_OFF, harness1Experiment, LIMITS_DEPARTURE, NO_DIVERSITY } from './harness-1'
import { armTable, metricValues, numberAt, row, stepLine } from '../measure'
import { pairedEffect } from '../verdict'
import type { ClaimDeclaration } from './types'

const METRIC = 'paragraph.recall'

export const harness1Mechanisms: ClaimDeclaration = {
  number: 4,
  name: 'harness1-mechanisms',
  title: 'Harness-1 mechanisms off one at a time and all off',
  paper: { source: 'Harness-1 ablations', figure: 'single mechanisms off lower final answer recall by up to 7.9%; all off by 12.2%' },
  measure: "held-out curated paragraph recall of the policy (the head, or the GGUF model with --policy gguf) trained with Harness-1's published reward in each configuration, all off minus the full harness (each single switch beside it); the scripted tool policy as a reference row",
  expected: 'negative',
  preconditions: { collapse: ['turns', 'evidence'], moves: { diagnostic: 'reward', label: 'training reward' } },
  // Shared with claim 5 (harness-1.ts): its diversity-on arm is this claim's full harness.
  experiment: harness1Experiment,
  evaluate: ({ raw, plan, results }) => {
    // Claim 5's reward row shares the experiment; it is not a mechanism switch.
    const mine = results.rows.filter((r) => r.label !== NO_DIVERSITY)
    const labels = mine.map((r) => r.label)
    const arms = labels.map((label) => ({ label: label === BASE ? 'full harness' : label, values: metricValues(row(results, label), METRIC) }))
    return {
      effectLabel: `held-out ${METRIC}, all off − full harness`,
      metric: METRIC,
      effect: pairedEffect(metricValues(row(results, BASE), METRIC), metricValues(row(results, ALL_OFF), METRIC)),
      arms: armTable(arms, 'full harness'),
      compared: [{ label: 'full harness', row: BASE, values: metricValues(row(results, BASE), METRIC) }, { label: ALL_OFF, row: ALL_OFF, values: metricValues(row(results, ALL_OFF), METRIC) }],
      // Training reward per step of every trained arm (the scripted reference does not train).
      series: [{ title: 'Training reward', x: 'training step', y: 'reward', lines: mine.filter((r) => r.kind === 'train').map((r) => stepLine(raw, r, r.label === BASE ? 'full harness' : r.label, numberAt('reward'))) }],
      departures: [
        'recall: curated paragraph recall (the paper reports final answer recall)',
        LIMITS_DEPARTURE,
        ...(plan.budget.singleMechanisms ? [] : ['only all-off is trained beside the full harness; the eight single switches (8 more Harness-1 training runs per seed) run with --single-mechanisms']),
      ],
    }
  },
}
