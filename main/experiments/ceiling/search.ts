/**
 * How much gold an environment lets any policy commit within its budget: a bounded depth-first search
 * over the environment's own transitions (reset, then menu actions or searches, replayed from the
 * start for each branch; the environments are deterministic), beside what a policy actually commits.
 *
 * The search branches on what can change the gold committed: every LOOKUP item (graph-menu) or one of
 * a bounded set of searches (free query: each gold document's title, alone and with the question's
 * terms, and the names of the entities the episode knows), and committing an open gold unit that is
 * on the SELECT menu (one sentence per open gold document for paragraph-level gold, the menu's first).
 * Committing other sentences is not explored (it only reorders LOOKUP queries), so the ceiling is the
 * best over this action set. It is pruned by an upper bound (gold committed + min(turns left, gold
 * open)) and by states already reached with as many turns left, and stops after maxSteps environment
 * steps (then `truncated`).
 */
import type { Action, Environment, EnvContext, EnvQuestion, MenuItem } from '../../harness'
import type { SentenceEnvData } from '../../harness'
import { normalisedText, SEARCH_TOOL } from '../../harness'

/** A gold sentence (sentence-level gold) or a gold document (paragraph-level gold only). */
export interface GoldUnit {
  kind: 'sentence' | 'document'
  /** Sentence or document id; null when the gold did not resolve against the workspace. */
  id: number | null
  /** Document title, for reasons and reports. */
  title: string
}

/** Why a gold unit is not in the best reachable set. */
export type UnreachableReason = 'not in the workspace' | 'never surfaced' | 'LOOKUP target filtered' | 'never on the SELECT menu' | 'budget'

export interface CeilingResult {
  units: GoldUnit[]
  /** Indexes into units committed by the best action sequence found. */
  best: number[]
  bestPath: Action[]
  /** Per unit not in best: why. */
  reasons: Map<number, UnreachableReason>
  steps: number
  truncated: boolean
}

export interface CeilingOptions {
  /** Environment steps the search may take (replays included). */
  maxSteps: number
  /** Gold units already known to be reachable (by the oracle's rules): only better sequences are searched for. */
  floor?: number
}

export const DEFAULT_CEILING_OPTIONS: CeilingOptions = { maxSteps: 3000 }

/** The gold of a loaded question as units: its sentences when it has sentence-level gold, else its documents. */
export function goldUnits(question: EnvQuestion): GoldUnit[] {
  const gold = question.gold
  if (!gold) throw new Error(`question ${question.id}: gold is not resolved (load questions with loadQuestions)`)
  if (gold.facts.length > 0) return gold.facts.map((f) => ({ kind: 'sentence', id: f.sentenceId, title: f.title }))
  return gold.documents.map((d) => ({ kind: 'document', id: d.documentId, title: d.title ?? d.name }))
}

/** The query tool of sentence environments that take free queries (free-query's `search`). */
const dataOf = (obs: { data: Record<string, unknown> }): SentenceEnvData => obs.data as SentenceEnvData
const sentenceOf = (item: MenuItem): { id: number; documentId: number } | undefined => item.target?.sentence

/** How many gold units the committed sentences cover. */
export function committedUnitCount(ctx: EnvContext, units: readonly GoldUnit[], sentenceIds: readonly number[]): number {
  const committed = new Set(sentenceIds)
  const documents = new Set([...committed].map((id) => ctx.corpus.sentence(id)?.documentId))
  return units.filter((u) => u.id !== null && (u.kind === 'sentence' ? committed.has(u.id) : documents.has(u.id))).length
}

/** Which units a sentence would commit. */
function unitsOf(units: readonly GoldUnit[], s: { id: number; documentId: number }): number[] {
  const out: number[] = []
  units.forEach((u, i) => {
    if (u.id !== null && (u.kind === 'sentence' ? u.id === s.id : u.id === s.documentId)) out.push(i)
  })
  return out
}

export async function searchCeiling(env: Environment, ctx: EnvContext, question: EnvQuestion, seed: number, options: CeilingOptions = DEFAULT_CEILING_OPTIONS): Promise<CeilingResult> {
  const units = goldUnits(question)
  const resolvable = units.filter((u) => u.id !== null).length
  let best: number[] = []
  let bestPath: Action[] = []
  let steps = 0
  let truncated = false
  const seenVisible = new Set<number>()
  const everVisible = new Set<number>()
  const everSelectable = new Set<number>()
  const memo = new Map<string, number>()

  const committedUnits = (data: SentenceEnvData): number[] => [...new Set(data.committed.flatMap((s) => unitsOf(units, s)))]

  const replay = async (path: readonly Action[]): Promise<SentenceEnvData> => {
    let obs = await env.reset(question, seed)
    for (const a of path) {
      obs = (await env.step(a)).observation
      steps++
    }
    return dataOf(obs)
  }

  const offersSearch = (): boolean => {
    const space = env.actions()
    return space.kind === 'tools' && space.tools.some((t) => t.name === SEARCH_TOOL)
  }

  const children = (data: SentenceEnvData, committed: ReadonlySet<number>): Action[] => {
    const out: Action[] = []
    const claimed = new Set<number>()
    for (const item of data.menu) {
      if (item.type !== 'SELECT') continue
      const s = sentenceOf(item)
      if (!s) continue
      const open = unitsOf(units, s).filter((u) => !committed.has(u) && !claimed.has(u))
      if (open.length === 0) continue
      for (const u of open) claimed.add(u)
      out.push({ kind: 'menu', id: item.id })
    }
    // A fetch on the last turn cannot be committed any more.
    if (data.turnsLeft < 2) return out
    for (const item of data.menu) if (item.type === 'LOOKUP') out.push({ kind: 'menu', id: item.id })
    // Searches where the environment offers a search tool now (its action space says so, not its name).
    if (offersSearch()) for (const query of searches(data, units, committed)) out.push({ kind: 'tool', name: SEARCH_TOOL, arguments: { query } })
    return out
  }

  const visit = async (path: Action[], data: SentenceEnvData): Promise<void> => {
    for (const s of [...data.visible, ...data.committed]) {
      seenVisible.add(s.id)
      for (const u of unitsOf(units, s)) everVisible.add(u)
    }
    for (const item of data.menu) {
      const s = item.type === 'SELECT' ? sentenceOf(item) : undefined
      if (s) for (const u of unitsOf(units, s)) everSelectable.add(u)
    }
    const committed = committedUnits(data)
    if (committed.length > best.length) {
      best = committed
      bestPath = [...path]
    }
    if (data.done || best.length === resolvable || steps >= options.maxSteps) {
      if (steps >= options.maxSteps && !data.done && best.length < resolvable) truncated = true
      return
    }
    const open = resolvable - committed.length
    if (committed.length + Math.min(data.turnsLeft, open) <= Math.max(best.length, options.floor ?? 0)) return
    const key = `${[...data.committed.map((s) => s.id)].sort((a, b) => a - b).join(',')}|${data.visible.map((s) => s.id).sort((a, b) => a - b).join(',')}|${data.entities.filter((e) => e.visited).map((e) => e.handle).join(',')}|${(data.queries ?? []).join('\u0000')}`
    if ((memo.get(key) ?? -1) >= data.turnsLeft) return
    memo.set(key, data.turnsLeft)
    const actions = children(data, new Set(committed))
    for (const [i, action] of actions.entries()) {
      if (steps >= options.maxSteps) {
        truncated = true
        return
      }
      // The environment is at this state for the first child; later ones replay the path.
      if (i > 0) await replay(path)
      const next = dataOf((await env.step(action)).observation)
      steps++
      await visit([...path, action], next)
      if (best.length === resolvable) return
    }
  }

  await visit([], dataOf(await env.reset(question, seed)))

  const reasons = new Map<number, UnreachableReason>()
  const bestSet = new Set(best)
  units.forEach((u, i) => {
    if (bestSet.has(i)) return
    if (u.id === null) reasons.set(i, 'not in the workspace')
    else if (everSelectable.has(i)) reasons.set(i, 'budget')
    else if (everVisible.has(i)) reasons.set(i, 'never on the SELECT menu')
    else reasons.set(i, filteredTarget(ctx, seenVisible, u.title) ? 'LOOKUP target filtered' : 'never surfaced')
  })
  return { units, best, bestPath, reasons, steps, truncated }
}

/** Searches the free-query search branches on: gold titles (alone and with the question's terms) and the known entities' names. */
function searches(data: SentenceEnvData, units: readonly GoldUnit[], committed: ReadonlySet<number>): string[] {
  const used = new Set((data.queries ?? []).map((q) => normalisedText(q)))
  const titles = [...new Set(units.filter((u, i) => !committed.has(i)).map((u) => u.title))]
  const candidates = [...titles, ...titles.map((t) => `${t} ${data.question}`), ...data.entities.filter((e) => !e.visited).map((e) => e.name)]
  return [...new Set(candidates)].filter((q) => !used.has(normalisedText(q))).slice(0, 8)
}

/** A sentence the search saw mentions an entity named like the gold document whose LOOKUP the graph filtered out (lookup_ok = 0). */
function filteredTarget(ctx: EnvContext, seen: ReadonlySet<number>, title: string): boolean {
  const want = normalisedText(title.replace(/\s*\(.*\)\s*$/, ''))
  for (const id of seen) for (const e of ctx.corpus.sentenceEntities(id)) if (!e.lookupOk && normalisedText(e.name) === want) return true
  return false
}
