import type { TrainStepDiagnostics } from '../../../../preload/contract'

/** Entropy under this share of the first measured step's: the policy is collapsing onto one path. */
export const COLLAPSE_ENTROPY_SHARE = 0.25
/** A zero-advantage share at or over this: most groups teach nothing (every rollout got the same reward). */
export const ZERO_ADVANTAGE_SHARE = 0.5

export interface LiveWarning {
  kind: 'kl' | 'collapse' | 'zero-advantage'
  step: number
  text: string
}

const pct = (v: number): string => `${Math.round(v * 100)}%`

/** What a researcher should see while a run trains, read from the steps so far (the latest step decides). */
export function liveWarnings(steps: readonly TrainStepDiagnostics[]): LiveWarning[] {
  const out: LiveWarning[] = []
  const last = steps.at(-1)
  if (!last) return out
  const kl = [...steps].reverse().find((s) => s.klWarning)
  if (kl?.klWarning) out.push({ kind: 'kl', step: kl.step, text: kl.klWarning })
  const measured = steps.filter((s) => s.keptGroups > 0 && s.entropy !== null && Number.isFinite(s.entropy))
  const first = measured[0]
  const latest = measured.at(-1)
  if (first && latest && latest !== first && first.entropy! > 0 && latest.entropy! < COLLAPSE_ENTROPY_SHARE * first.entropy!) {
    out.push({ kind: 'collapse', step: latest.step, text: `Entropy fell from ${first.entropy!.toFixed(2)} (step ${first.step}) to ${latest.entropy!.toFixed(2)} (step ${latest.step}), under ${pct(COLLAPSE_ENTROPY_SHARE)} of where it began: the policy may be collapsing onto one path` })
  }
  if (last.zeroAdvantageRate >= ZERO_ADVANTAGE_SHARE) {
    out.push({ kind: 'zero-advantage', step: last.step, text: `${pct(last.zeroAdvantageRate)} of step ${last.step}'s groups had zero advantage (all wrong ${pct(last.allWrongRate)}, all correct ${pct(last.allCorrectRate)}): they teach nothing` })
  }
  return out
}
