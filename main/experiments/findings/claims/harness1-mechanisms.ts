/**
 * Claim 4 (Harness-1 ablation table): each working-memory mechanism switched off lowers recall of a
 * trained policy, all off lowers it most; the scripted tool policy is a reference row.
 */
import { BASE, trainedBase } from './base'
import { armTable, metricValues, numberAt, row, stepLine } from '../measure'
import { pairedEffect } from '../verdict'
import type { AblationRowInput } from '../../../../preload/contract'
import type { ClaimDeclaration } from './types'

const SINGLES = ['no-auto-seed', 'no-compression', 'no-dedup', 'no-importance-tags', 'no-evidence-graph', 'no-verification', 'no-review-docs', 'no-budget-markers']
const ALL_OFF = 'all mechanisms off'
const SCRIPTED = 'scripted tools (reference)'
const METRIC = 'paragraph.recall'

export const harness1Mechanisms: ClaimDeclaration = {
  number: 4,
  name: 'harness1-mechanisms',
  title: 'Harness-1 mechanisms off one at a time and all off',
  paper: { source: 'Harness-1 ablations', figure: 'single mechanisms off lower final answer recall by up to 7.9%; all off by 12.2%' },
  measure: 'held-out curated paragraph recall of the policy (the head, or the GGUF model with --policy gguf) trained in each configuration, all off minus the full harness (each single switch beside it); the scripted tool policy as a reference row',
  expected: 'negative',
  preconditions: { collapse: ['turns', 'evidence'], moves: { diagnostic: 'reward', label: 'training reward' } },
  experiment: (plan) => {
    const rows: AblationRowInput[] = [
      ...(plan.budget.singleMechanisms ? SINGLES.map((preset) => ({ label: preset, group: 'mechanism', preset, training: {} })) : []),
      { label: ALL_OFF, group: 'mechanism', preset: 'all-off', training: {} },
      { label: SCRIPTED, group: 'reference', policy: { kind: 'scripted', name: 'scripted-tools' } },
    ]
    return { key: 'harness1-mechanisms', config: { base: trainedBase(plan, 'stateful'), rows } }
  },
  evaluate: ({ raw, plan, results }) => {
    const labels = results.rows.map((r) => r.label)
    const arms = labels.map((label) => ({ label: label === BASE ? 'full harness' : label, values: metricValues(row(results, label), METRIC) }))
    return {
      effectLabel: `held-out ${METRIC}, all off − full harness`,
      metric: METRIC,
      effect: pairedEffect(metricValues(row(results, BASE), METRIC), metricValues(row(results, ALL_OFF), METRIC)),
      arms: armTable(arms, 'full harness'),
      compared: [{ label: 'full harness', row: BASE, values: metricValues(row(results, BASE), METRIC) }, { label: ALL_OFF, row: ALL_OFF, values: metricValues(row(results, ALL_OFF), METRIC) }],
      // Training reward per step of every trained arm (the scripted reference does not train).
      series: [{ title: 'Training reward', x: 'training step', y: 'reward', lines: results.rows.filter((r) => r.kind === 'train').map((r) => stepLine(raw, r, r.label === BASE ? 'full harness' : r.label, numberAt('reward'))) }],
      departures: [
        'recall: curated paragraph recall (the paper reports final answer recall)',
        ...(plan.budget.singleMechanisms ? [] : ['only all-off is trained beside the full harness; the eight single switches (8 more Harness-1 training runs per seed) run with --single-mechanisms']),
      ],
    }
  },
}
