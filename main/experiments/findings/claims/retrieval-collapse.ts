/**
 * Claim 1 (Harness-G Fig. 1): under outcome-only GRPO, free-query rollout groups collapse onto one
 * retrieval-equivalence class while menu groups stay diverse. Measured on the training groups of the
 * second half of training (the held-out split is evaluated, never trained on, and greedy there).
 */
import { BASE } from './base'
import { harnessGExperiment, MENU } from './harness-g'
import { numberAt, row, spanningGroups, stepLine, armTable } from '../measure'
import { pairedEffect } from '../verdict'
import type { ClaimDeclaration } from './types'

export const retrievalCollapse: ClaimDeclaration = {
  number: 1,
  name: 'retrieval-collapse',
  title: 'Retrieval-equivalence collapse: free query vs menu',
  paper: { source: 'Harness-G Fig. 1', figure: 'free-query groups spanning more than one retrieval-equivalence class fall from about 86% to under 10% by step 30 (query-string diversity stays high); menu groups stay diverse' },
  measure: 'share of training groups (second half of training) whose rollouts span more than one retrieval-equivalence class (D_ret), menu minus free query, paired by question, step and seed; N_eq, D_ret and D_query per step as charts',
  expected: 'positive',
  // Training groups, not held-out episodes: D_ret itself must have moved over training (the claim is a collapse over training).
  preconditions: { collapse: [], moves: { diagnostic: 'spanningGroups', label: 'D_ret' } },
  // Shared with claims 2 and 3 (harness-g.ts).
  experiment: harnessGExperiment,
  evaluate: ({ raw, plan, results }) => {
    const free = row(results, BASE)
    const menu = row(results, MENU)
    const from = Math.floor(plan.budget.steps / 2)
    const freeGroups = spanningGroups(raw, free, from)
    const menuGroups = spanningGroups(raw, menu, from)
    const series = (title: string, y: string, key: string) => ({ title, x: 'training step', y, lines: [stepLine(raw, free, 'free query', numberAt(key)), stepLine(raw, menu, 'menu', numberAt(key))] })
    return {
      effectLabel: `D_ret (share of groups spanning > 1 class, steps ${from}+), menu − free query`,
      metric: 'D_ret',
      effect: pairedEffect(freeGroups, menuGroups),
      arms: armTable([{ label: 'free query', values: freeGroups }, { label: 'menu', values: menuGroups }], 'free query'),
      compared: [{ label: 'free query', row: BASE, values: freeGroups }, { label: 'menu', row: MENU, values: menuGroups }],
      series: [series('Groups spanning > 1 retrieval-equivalence class (D_ret)', 'share of groups', 'spanningGroups'), series('Retrieval-equivalence classes per group (N_eq)', 'classes', 'equivalenceClasses'), series('Query-string diversity (D_query)', 'distinct share', 'queryDiversity')],
      departures: [
        plan.gguf?.extractiveQueries
          ? "free queries: the GGUF model chooses its search words, decoded as words of the observation (extractiveQueries: not free text; the paper: a 3B LLM writing any string)"
          : plan.gguf
          ? 'free queries: the GGUF model writes its own search strings (the paper: a 3B LLM; this model is far smaller)'
          : 'free queries: the head picks among up to 8 search strings a deterministic generator writes per decision (the paper: the LLM writes its own queries; with --policy gguf they are the model\'s own strings)',
        `unit: training groups of ${plan.budget.groupSize} rollouts (paper: groups of 8); a group pairs across arms when both drew the same question at the same step (same seed, same data order)`],
    }
  },
}
