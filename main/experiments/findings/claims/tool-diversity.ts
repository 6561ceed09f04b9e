/** Claim 5 (Harness-1 reward): without the tool-diversity term the trained policy collapses onto search alone. */
import { PUBLISHED_HARNESS1_WEIGHTS } from '../../../rl/rewards'
import { BASE } from './base'
import { harness1Experiment, LIMITS_DEPARTURE, NO_DIVERSITY as OFF } from './harness-1'
import { armTable, distinctTools, row, stepLine } from '../measure'
import { pairedEffect } from '../verdict'
import type { ClaimDeclaration } from './types'

export const toolDiversity: ClaimDeclaration = {
  number: 5,
  name: 'tool-diversity',
  title: 'Tool-diversity reward on vs off',
  paper: { source: 'Harness-1 reward', figure: 'without the diversity term (w_div 0.25-0.5) the policy collapses to search-only' },
  measure: "distinct tools per held-out episode (end_search excluded) of the policy (head or GGUF model) trained with Harness-1's published reward, with minus without the tool-diversity terms; tool mix per training step as charts",
  expected: 'positive',
  preconditions: { collapse: ['turns', 'tools'], moves: { diagnostic: 'reward', label: 'training reward' }, measures: 'tools' },
  // Shared with claim 4 (harness-1.ts): the diversity-on arm is claim 4's full harness.
  experiment: harness1Experiment,
  evaluate: ({ raw, results }) => {
    const on = row(results, BASE)
    const off = row(results, OFF)
    const onTools = distinctTools(raw, on)
    const offTools = distinctTools(raw, off)
    const tools = [...new Set([...Object.keys(on.toolMix), ...Object.keys(off.toolMix)])].filter((t) => t !== 'end_search')
    const mix = (r: typeof on, label: string) => ({
      title: `Tool mix over training: ${label}`,
      x: 'training step',
      y: 'share of steps',
      lines: tools.map((t) => stepLine(raw, r, t, (d) => ((d.actionMix as Record<string, number> | undefined)?.[t] ?? 0))),
    })
    return {
      effectLabel: 'distinct tools per held-out episode, diversity reward on − off',
      metric: 'distinct tools',
      effect: pairedEffect(offTools, onTools),
      arms: armTable([{ label: 'diversity reward off', values: offTools }, { label: `diversity reward on (w_div ${PUBLISHED_HARNESS1_WEIGHTS.diversity})`, values: onTools }], 'diversity reward off'),
      compared: [{ label: 'diversity reward off', row: OFF, values: offTools }, { label: 'diversity reward on', row: BASE, values: onTools }],
      series: [mix(on, 'diversity reward on'), mix(off, 'diversity reward off')],
      departures: [LIMITS_DEPARTURE],
    }
  },
}
