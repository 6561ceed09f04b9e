import type { Action, ActionSpace, EnvContext, Preview } from '../types'
import type { GraphMenuConfig } from './config'
import type { Episode, HistoryEntry } from '../sentence-substrate/episode'
import { lookupItems, type LookupPlan } from './lookup-items'
import { renderMenu, renderState } from '../sentence-substrate/render'
import { SentenceEnvironment, type Resolved } from '../sentence-substrate/sentence-environment'
import type { BuiltItems } from '../sentence-substrate/sentence-items'

/** Neighbour links followed from each entity of a committed sentence. */
const LINKS_PER_ENTITY = 3

/**
 * Harness-G: the policy picks one id from a bounded, validated menu (SELECT, LOOKUP, ANSWER_WITH,
 * ANSWER) and writes no text. Every item's preview is computed with the menu.
 */
export class GraphMenuEnvironment extends SentenceEnvironment<GraphMenuConfig> {
  readonly name = 'graph-menu'
  private plans = new Map<string, LookupPlan>()

  constructor(ctx: EnvContext, config: GraphMenuConfig) {
    super(ctx, config)
  }

  actions(): ActionSpace {
    return { kind: 'menu', items: this.ep && !this.ep.done ? JSON.parse(JSON.stringify(this.menu)) : [] }
  }

  render(): string {
    const ep = this.episode()
    const lines = renderState(ep, this.config.turnLimit)
    if (ep.done) lines.push('', `Episode over (${ep.endReason}).`)
    else lines.push(...renderMenu(this.menu))
    return lines.join('\n')
  }

  protected async extraItems(ep: Episode): Promise<BuiltItems> {
    const built = await lookupItems(ep, this.corpus, this.surfacer, this.config)
    this.plans = built.plans
    return { items: built.items, previews: built.previews }
  }

  protected resolveTool(_action: Extract<Action, { kind: 'tool' }>): Resolved {
    return { formatError: 'this environment takes one menu id, not a tool call' }
  }

  protected async applyOther(ep: Episode, resolved: Exclude<Resolved, { formatError: string }>): Promise<Omit<HistoryEntry, 'turn' | 'action' | 'valid'>> {
    const plan = resolved.kind === 'item' ? this.plans.get(resolved.item.id) : undefined
    if (!plan || resolved.kind !== 'item') throw new Error(`${this.name}: no transition for ${JSON.stringify(resolved)}`)
    plan.entity.visited = true
    ep.usedKeys.add(plan.key)
    const added = ep.surface(plan.adds, resolved.item.id)
    return {
      type: 'LOOKUP',
      itemId: resolved.item.id,
      query: plan.query,
      key: plan.key,
      summary: `looked up ${plan.entity.name}: ${added.sentenceIds.length} new sentence(s), ${added.entityIds.length} new entit${added.entityIds.length === 1 ? 'y' : 'ies'}`,
      added,
    }
  }

  protected async previewOther(): Promise<Preview | null> {
    return null
  }

  /** A committed sentence makes the graph neighbours of its entities LOOKUP candidates too. */
  protected override afterCommit(ep: Episode, sentenceId: number, via: string): number[] {
    if (!this.config.linkedEntities) return []
    const added: number[] = []
    for (const e of this.corpus.mentions(sentenceId)) {
      if (!e.lookupOk) continue
      for (const link of this.corpus.links(e.id).slice(0, LINKS_PER_ENTITY)) {
        if (ep.admitEntity(this.corpus.entity(link.id), via, { fromEntity: e.id })) added.push(link.id)
      }
    }
    return added
  }
}
