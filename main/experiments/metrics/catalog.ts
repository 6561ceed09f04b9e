import type { MetricInfo } from '../../../preload/contract'
import { GRAPHR1, METRIC_GROUPS, OFFICIAL, type MetricDeclaration } from './declaration'
import { metrics } from './registry'

/** A declaration as the contract carries it (harness.catalog, training.catalog). */
export const infoOf = (d: MetricDeclaration): MetricInfo => ({ name: d.name, label: d.label, description: d.description, ...d.capabilities })

const info = (name: string, label: string, group: string, description: string, direction: MetricInfo['direction'], format: MetricInfo['format']): MetricInfo => ({ name, label, description, direction, format, group, level: 'episode', headline: false })

const humanise = (s: string): string => {
  const spaced = s.replace(/[._-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').trim().toLowerCase()
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : s
}

/** Readable description of a stored name no declaration has (a run stored by a newer or older app), from its shape. */
function fallback(name: string): MetricInfo {
  const reward = /^reward\.(.+)$/.exec(name)
  if (reward) return info(name, `Reward term: ${humanise(reward[1]!)}`, METRIC_GROUPS.reward, `Weighted reward term '${reward[1]}' (signed; penalties are negative).`, 'higher', 'number')
  const answer = /^answer\.(em|f1|precision|recall)\.(.+)$/.exec(name)
  if (answer) {
    const variant = answer[2] === 'official' ? OFFICIAL : answer[2] === 'graphr1' ? GRAPHR1 : `${answer[2]} normalisation`
    return { ...info(name, `${answer[1]!.length === 2 ? answer[1]!.toUpperCase() : humanise(answer[1]!)} (${variant})`, METRIC_GROUPS.answer, `Answer ${answer[1]} under the ${variant} rule.`, 'higher', 'fraction'), level: 'answer' }
  }
  const recall = /(recall|precision|f1|fbeta|em)$/i.test(name)
  const ms = /(^|\.)(ms|millis)$|Ms$/.test(name)
  return info(name, humanise(name), METRIC_GROUPS.other, `Stored metric '${name}' (not described in the metric catalogue).`, recall ? 'higher' : 'none', recall ? 'fraction' : ms ? 'ms' : 'number')
}

const NAMES = new Set(metrics.names())
const known = (name: string): boolean => NAMES.has(name)

/** Description of one metric: its declaration, or a readable fallback for a name none declares. */
export function metricInfo(name: string): MetricInfo {
  return known(name) ? infoOf(metrics.get(name)) : fallback(name)
}

/**
 * Every declared metric in display order, plus fallback entries for `alsoNames` no declaration has
 * (names a run stored that this app does not declare), so every stored name has a description.
 */
export function metricCatalog(alsoNames: Iterable<string> = []): MetricInfo[] {
  const out = metrics.declarations().map(infoOf)
  for (const name of alsoNames) if (!known(name) && !out.some((i) => i.name === name)) out.push(fallback(name))
  return out
}
