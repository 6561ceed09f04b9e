import { MENU_ANSWER_ID } from '../../../preload/contract/protocols'
import type { Action, ActionSpace, EnvContext, EpisodeOutcome, Preview } from '../types'
import type { Episode, HistoryEntry } from '../sentence-substrate/episode'
import { renderState } from '../sentence-substrate/render'
import { SentenceEnvironment, type Resolved, type SentenceEnvData } from '../sentence-substrate/sentence-environment'
import { clip, type BuiltItems } from '../sentence-substrate/sentence-items'
import type { RankedSentence } from '../sentence-substrate/surfacing'
import { queryKey } from '../sentence-substrate/terms'
import type { FreeQueryConfig } from './config'
import { capQuery, freeQueryTools, parseToolText } from './tools'

type Search = Extract<Resolved, { kind: 'search' }>

/** The provenance of a sentence the policy's own query made visible. */
const SEARCHED = 'search'

/**
 * The Search-R1-style baseline over the menu environment's substrate: the same reset retrieval,
 * SELECT / ANSWER_WITH / ANSWER transitions, caps, budgets and seeds, but new sentences come from a
 * query the policy writes (a `search` tool call, `search: ...` text) instead of a LOOKUP item.
 */
export class FreeQueryEnvironment extends SentenceEnvironment<FreeQueryConfig> {
  readonly name = 'free-query'

  constructor(ctx: EnvContext, config: FreeQueryConfig) {
    super(ctx, config)
  }

  actions(): ActionSpace {
    return { kind: 'tools', tools: this.ep && !this.ep.done ? freeQueryTools(this.config.maxQueryChars) : [] }
  }

  /** Also accepts `search: <query>`, `<search>query</search>` and JSON tool calls, besides menu ids. */
  override parse(text: string): Action | { formatError: string } {
    const tool = parseToolText(text.trim())
    return tool ?? super.parse(text)
  }

  render(): string {
    const ep = this.episode()
    const lines = renderState(ep, this.config.turnLimit)
    if (ep.done) return [...lines, '', `Episode over (${ep.endReason}).`].join('\n')
    const ids = (type: string) => this.menu.filter((i) => i.type === type).map((i) => i.id)
    const queries = this.queries()
    lines.push(
      '',
      'Reply with exactly one action:',
      `  search: <query>   retrieve with your own query (at most ${this.config.maxQueryChars} characters)`,
      `  S<n>              SELECT sentence #n into the evidence (now: ${ids('SELECT').join(', ') || 'none'})`,
      `  W<n>              ANSWER_WITH sentence #n: commit it and stop (now: ${ids('ANSWER_WITH').join(', ') || 'none'})`,
      '  A                 ANSWER: stop with the committed evidence',
      'JSON tool calls are accepted too, e.g. {"name": "search", "arguments": {"query": "..."}}.',
      `Queries so far: ${queries.length === 0 ? '(none)' : queries.map((q) => JSON.stringify(q)).join(', ')}`,
    )
    return lines.join('\n')
  }

  protected override observationData(): SentenceEnvData {
    return { ...super.observationData(), queries: this.queries(), maxQueryChars: this.config.maxQueryChars }
  }

  protected override queriedOutcome(ep: Episode): Pick<EpisodeOutcome, 'queried'> {
    return { queried: { sentenceIds: [...ep.visible.values()].filter((s) => s.via === SEARCHED).sort((a, b) => a.handle - b.handle).map((s) => s.id) } }
  }

  protected async extraItems(): Promise<BuiltItems> {
    return { items: [], previews: new Map() }
  }

  protected resolveTool(action: Extract<Action, { kind: 'tool' }>): Resolved {
    const args = action.arguments ?? {}
    if (typeof args !== 'object' || Array.isArray(args)) return { formatError: `${action.name}: arguments must be a JSON object` }
    const { query, id, ...rest } = args as { query?: unknown; id?: unknown }
    const extra = Object.keys(rest)
    switch (action.name) {
      case 'search': {
        if (extra.length > 0 || id !== undefined) return { formatError: `search takes only "query", got ${Object.keys(args).join(', ')}` }
        if (typeof query !== 'string') return { formatError: 'search needs a "query" string' }
        const capped = capQuery(query, this.config.maxQueryChars)
        const key = queryKey(capped.query)
        if (key === '') return { formatError: 'the query has no searchable words' }
        if (!this.config.allowRepeatedQueries && this.episode().usedKeys.has(key)) {
          return { formatError: `repeated query: an earlier search used the same terms (${key})` }
        }
        return { kind: 'search', query: capped.query, truncated: capped.truncated }
      }
      case 'select':
      case 'answer': {
        if (extra.length > 0 || query !== undefined) return { formatError: `${action.name} takes only "id"` }
        if (action.name === 'answer' && id === undefined) return this.itemOf(MENU_ANSWER_ID)
        if (typeof id !== 'string' || !/^[SW][0-9]+$/.test(id)) return { formatError: `${action.name} needs an "id" such as S3` }
        return this.itemOf(`${action.name === 'select' ? 'S' : 'W'}${id.slice(1)}`)
      }
      default:
        return { formatError: `unknown tool ${JSON.stringify(action.name)} (search, select, answer)` }
    }
  }

  protected async applyOther(ep: Episode, resolved: Exclude<Resolved, { formatError: string }>): Promise<Omit<HistoryEntry, 'turn' | 'action' | 'valid'>> {
    if (resolved.kind !== 'search') throw new Error(`${this.name}: no transition for ${JSON.stringify(resolved)}`)
    const { key, adds } = await this.plan(ep, resolved)
    ep.usedKeys.add(key)
    const added = ep.surface(adds, SEARCHED)
    return {
      type: 'SEARCH',
      query: resolved.query,
      key,
      summary: `searched ${JSON.stringify(clip(resolved.query, 80))}${resolved.truncated ? ' (cut to the length limit)' : ''}: ${added.sentenceIds.length} new sentence(s)`,
      added,
    }
  }

  protected async previewOther(ep: Episode, resolved: Exclude<Resolved, { formatError: string }>): Promise<Preview | null> {
    if (resolved.kind !== 'search') return null
    const { adds } = await this.plan(ep, resolved)
    return {
      sentenceIds: adds.map((r) => r.row.id),
      summary: `adds ${adds.length}: ${adds.map((r) => `[${clip(r.row.title, 30)}] ${clip(r.row.text, 80)}`).join(' | ')}`,
    }
  }

  /** What a search adds: the best sentences of its top chunks that are not visible yet. */
  private async plan(ep: Episode, search: Search): Promise<{ key: string; adds: RankedSentence[] }> {
    const retrieval = await this.surfacer.retrieve(search.query, this.config.lookupK)
    return { key: retrieval.key, adds: retrieval.ranked.filter((r) => !ep.visible.has(r.row.id)).slice(0, this.config.lookupSentences) }
  }

  private itemOf(id: string): Resolved {
    const item = this.menu.find((i) => i.id === id)
    return item ? { kind: 'item', item } : { formatError: `${id} is not available now` }
  }

  private queries(): string[] {
    return this.episode().history.filter((h) => h.type === 'SEARCH' && h.query !== undefined).map((h) => h.query!)
  }
}
