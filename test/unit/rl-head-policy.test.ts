/**
 * The head as a policy over every protocol it drives: the untrained head plays whole episodes with zero
 * format errors, feature rows have the layout's dimension and are finite, greedy play is deterministic and
 * sampling is reproducible per seed. Harness-1's candidates are checked call by call against the harness's
 * validator and its working memory (ids shown, ids curated), on the stateful harness and the transcript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEnvironment, environmentFactory, runEpisode, type Action, type Environment, type Trajectory } from '../../main/harness'
import { parseDocId, validateToolCall, type StatefulEnvironment, type StatefulSnapshot } from '../../main/harness/stateful'
import { createHead } from '../../main/policy/head'
import {
  HARNESS1_CANDIDATES,
  HARNESS1_LAYOUT,
  HARNESS1_TOOLS,
  HEAD_PROTOCOLS,
  HeadPolicy,
  candidateBuilder,
  harness1Candidates,
  headInputDim,
  layoutDimension,
  type CandidateBuilder,
} from '../../main/policy/head-policy'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

const ENVIRONMENTS = ['graph-menu', 'free-query', 'stateful', 'transcript'] as const
const QUESTIONS = 6

describe('head policy over every protocol', () => {
  let demo: DemoWorkspace
  beforeAll(async () => {
    demo = await openDemoWorkspace(7, 0.6)
  })
  afterAll(async () => demo?.close())

  const headFor = (environment: string, seed = 3) => createHead('mlp', { inputDim: headInputDim(environmentFactory(environment).protocol), hidden: 16, seed })
  const policyFor = (environment: string, mode: 'greedy' | 'sample', seed = 3) =>
    new HeadPolicy(headFor(environment, seed), candidateBuilder(environmentFactory(environment).protocol), { mode })
  const play = async (environment: string, policy: HeadPolicy, seedOf: (i: number) => number): Promise<{ trajectories: Trajectory[]; rows: Float64Array[] }> => {
    const env = createEnvironment(environment, demo.ctx)
    const trajectories: Trajectory[] = []
    const rows: Float64Array[] = []
    for (const [i, q] of demo.questions.slice(0, QUESTIONS).entries()) {
      trajectories.push(await runEpisode(env, policy, q, seedOf(i), { snapshots: false }))
      for (const r of policy.records) rows.push(...r.rows)
    }
    return { trajectories, rows }
  }
  const actionsOf = (ts: Trajectory[]) => ts.map((t) => t.steps.map((s) => JSON.stringify(s.action)))

  it('drives every protocol of the built-in environments, Harness-1 included', () => {
    expect([...HEAD_PROTOCOLS].sort()).toEqual(['harness1-tools', 'sentence-menu', 'sentence-search'])
    for (const e of ENVIRONMENTS) expect(HEAD_PROTOCOLS).toContain(environmentFactory(e).protocol)
    expect(headInputDim('harness1-tools')).toBe(layoutDimension(HARNESS1_LAYOUT))
    expect(HARNESS1_LAYOUT.types).toEqual(HARNESS1_TOOLS)
  })

  for (const environment of ENVIRONMENTS) {
    describe(environment, () => {
      it('the untrained head plays whole episodes with zero format errors; rows have the layout dimension and are finite', async () => {
        const protocol = environmentFactory(environment).protocol
        const dim = layoutDimension(candidateBuilder(protocol).layout)
        for (const mode of ['greedy', 'sample'] as const) {
          const { trajectories, rows } = await play(environment, policyFor(environment, mode), (i) => 100 + i)
          for (const t of trajectories) {
            expect(t.outcome.formatErrors).toBe(0)
            expect(t.outcome.endReason).not.toBe('step-cap')
            expect(t.outcome.endReason).not.toBe('running')
            expect(t.steps.length).toBeGreaterThan(0)
            for (const s of t.steps) expect(s.info.valid, `${JSON.stringify(s.action)}: ${s.info.formatError}`).toBe(true)
          }
          expect(rows.length).toBeGreaterThan(0)
          for (const r of rows) {
            expect(r.length).toBe(dim)
            for (const x of r) expect(Number.isFinite(x)).toBe(true)
          }
        }
      })

      it('greedy play is deterministic; sampling is reproducible per seed and varies across seeds', async () => {
        const g1 = await play(environment, policyFor(environment, 'greedy'), (i) => 100 + i)
        const g2 = await play(environment, policyFor(environment, 'greedy'), (i) => 100 + i)
        expect(actionsOf(g2.trajectories)).toEqual(actionsOf(g1.trajectories))
        const s1 = await play(environment, policyFor(environment, 'sample'), (i) => 7 + i)
        const s2 = await play(environment, policyFor(environment, 'sample'), (i) => 7 + i)
        const s3 = await play(environment, policyFor(environment, 'sample'), (i) => 9_000 + i)
        expect(actionsOf(s2.trajectories)).toEqual(actionsOf(s1.trajectories))
        expect(actionsOf(s3.trajectories)).not.toEqual(actionsOf(s1.trajectories))
        expect(s2.trajectories.map((t) => t.outcome)).toEqual(s1.trajectories.map((t) => t.outcome))
      })
    })
  }

  describe('Harness-1 candidates', () => {
    /** Checks every candidate of every decision against the validator and the episode's working memory, then plays the policy's choice. */
    const audit = async (environment: 'stateful' | 'transcript', mode: 'greedy' | 'sample', seed: number, delta: Record<string, unknown> = {}) => {
      const env = createEnvironment(environment, demo.ctx, delta) as StatefulEnvironment & Environment<StatefulSnapshot>
      const types = new Set<string>()
      const tags = new Set<string>()
      let decisions = 0
      let removals = 0
      for (const [i, q] of demo.questions.slice(0, QUESTIONS).entries()) {
        const policy = policyFor(environment, mode, seed)
        // A second per-episode builder, fed the policy's choices, shows what the policy chose among.
        const watching: CandidateBuilder = harness1Candidates.forEpisode!()
        policy.reset({ seed: seed + i, question: q })
        let observation = await env.reset(q, seed + i)
        while (!env.done) {
          const actions = env.actions()
          const candidates = watching.candidates(observation, actions)
          const snap = env.snapshot()
          const seen = new Set(snap.seen)
          const curated = new Set(snap.curated.map((c) => c.id))
          const offered = new Set(actions.kind === 'tools' ? actions.tools.map((t) => t.name) : [])
          expect(candidates.length).toBeGreaterThan(0)
          expect(candidates.length).toBeLessThanOrEqual(HARNESS1_CANDIDATES)
          expect(candidates.some((c) => c.type === 'end_search')).toBe(true)
          expect(new Set(candidates.map((c) => JSON.stringify(c.action))).size).toBe(candidates.length)
          for (const c of candidates) {
            const a = c.action as Action & { kind: 'tool' }
            expect(a.kind).toBe('tool')
            expect(c.type).toBe(a.name)
            expect(offered.has(a.name)).toBe(true)
            const v = validateToolCall(a.name, a.arguments, env.config)
            expect(v.ok, `${c.label}: ${v.ok ? '' : v.error}`).toBe(true)
            const args = a.arguments as Record<string, unknown>
            for (const id of [...((args.add_ids as string[]) ?? []), ...((args.doc_ids as string[]) ?? [])]) expect(seen.has(id), `${c.label}: ${id} not shown`).toBe(true)
            for (const id of (args.remove_ids as string[]) ?? []) expect(curated.has(id), `${c.label}: ${id} not curated`).toBe(true)
            if (args.doc_id !== undefined) expect(parseDocId(args.doc_id)).not.toBeNull()
            if (args.importance) tags.add(String(args.importance))
            if (args.remove_ids) removals++
            for (const [k, x] of Object.entries(c.features)) expect(Number.isFinite(x), `${c.label}.${k}`).toBe(true)
            types.add(c.type)
          }
          decisions++
          const decision = await policy.act(observation, actions)
          const chosen = candidates.find((c) => JSON.stringify(c.action) === JSON.stringify(decision.action))
          expect(chosen, 'the policy chose one of the candidates').toBeDefined()
          watching.chosen!(chosen!)
          const step = await env.step(decision.action)
          expect(step.info.valid, step.info.formatError).toBe(true)
          observation = step.observation
        }
        expect(env.outcome().formatErrors).toBe(0)
      }
      return { types, tags, decisions, removals, config: env.config }
    }

    for (const environment of ['stateful', 'transcript'] as const) {
      it(`${environment}: every candidate is a valid call on ids the episode has shown (curated ids for removals)`, async () => {
        const all = new Set<string>()
        const tags = new Set<string>()
        let removals = 0
        let config: StatefulEnvironment['config'] | null = null
        for (const [seed, mode] of [[1, 'sample'], [2, 'sample'], [3, 'greedy']] as const) {
          const r = await audit(environment, mode, seed)
          r.types.forEach((t) => all.add(t))
          r.tags.forEach((t) => tags.add(t))
          removals += r.removals
          config = r.config
          expect(r.decisions).toBeGreaterThan(QUESTIONS)
        }
        // Every tool the harness offers is offered at some point; curation with each importance tag where tags are on.
        const tools = HARNESS1_TOOLS.filter((t) => (t === 'verify' ? config!.verification : t === 'review_docs' ? config!.reviewDocs : true))
        expect([...all].sort()).toEqual([...tools].sort())
        expect([...tags].sort()).toEqual(config!.importanceTags ? ['fair', 'high', 'low', 'very_high'] : [])
        if (config!.autoSeed) expect(removals).toBeGreaterThan(0)
      })
    }

    it('a tiny curated set (evictions, refusals) and auto-seeding in the transcript never lead to an invalid removal', async () => {
      let removals = 0
      for (const environment of ['stateful', 'transcript'] as const) {
        for (const seed of [4, 5, 6, 7]) {
          const r = await audit(environment, 'sample', seed, { curatedCap: 3, autoSeed: true, importanceTags: true, verification: true, reviewDocs: true })
          removals += r.removals
        }
        const untagged = await audit(environment, 'sample', 8, { curatedCap: 2, autoSeed: true, importanceTags: false })
        expect(untagged.tags.size).toBe(0)
      }
      expect(removals).toBeGreaterThan(0)
    })

    it('the transcript builder remembers earlier results: it offers ids from results it is no longer shown', async () => {
      // The transcript baseline with verification and tags switched back on (the mirror keeps tags too).
      const env = createEnvironment('transcript', demo.ctx, { verification: true, importanceTags: true })
      const q = demo.questions[0]!
      const builder = harness1Candidates.forEpisode!()
      let o = await env.reset(q, 1)
      let candidates = builder.candidates(o, env.actions())
      const search = candidates.find((c) => c.type === 'fan_out_search')!
      builder.chosen!(search)
      o = (await env.step(search.action)).observation
      candidates = builder.candidates(o, env.actions())
      const curate = candidates.find((c) => c.type === 'curate' && (c.action as { arguments: { importance?: string } }).arguments.importance === 'very_high')!
      expect(curate).toBeDefined()
      builder.chosen!(curate)
      o = (await env.step(curate.action)).observation
      expect((o.data as { lastResult: { ok: boolean } }).lastResult.ok).toBe(true)
      // The transcript shows only the curate result now; the builder still knows the searched documents and the curated one.
      candidates = builder.candidates(o, env.actions())
      expect(candidates.some((c) => c.type === 'read_document' || c.type === 'review_docs')).toBe(true)
      expect(builder.state(o).hasCommitted).toBe(1)
      const verify = candidates.find((c) => c.type === 'verify')!
      const added = (curate.action as { arguments: { add_ids: string[] } }).arguments.add_ids
      expect((verify.action as { arguments: { doc_ids: string[] } }).arguments.doc_ids).toEqual(added)
      // The shared builder, without the episode's memory, sees only what this observation shows.
      expect(harness1Candidates.candidates(o, env.actions()).some((c) => c.type === 'verify')).toBe(false)
    })

    it('searched queries are not offered again and tools used before are marked', async () => {
      const env = createEnvironment('stateful', demo.ctx)
      const q = demo.questions[1]!
      const builder = harness1Candidates.forEpisode!()
      let o = await env.reset(q, 1)
      const first = builder.candidates(o, env.actions())
      const search = first.find((c) => c.type === 'search_corpus')!
      expect(search.features.uses).toBe(0)
      builder.chosen!(search)
      o = (await env.step(search.action)).observation
      const next = builder.candidates(o, env.actions())
      const query = (search.action as { arguments: { query: string } }).arguments.query
      expect(next.some((c) => c.type === 'search_corpus' && (c.action as { arguments: { query: string } }).arguments.query === query)).toBe(false)
      for (const c of next) if (c.type === 'search_corpus') expect(c.features.uses).toBe(1)
      for (const c of next) expect(c.features.toolsUsed).toBe(1)
      // The stateful observation alone says as much (search history): the shared builder agrees.
      const shared = harness1Candidates.candidates(o, env.actions()).filter((c) => c.type === 'search_corpus').map((c) => c.label)
      expect(shared).toEqual(next.filter((c) => c.type === 'search_corpus').map((c) => c.label))
      expect((env.snapshot() as StatefulSnapshot).curated.length).toBeGreaterThan(0)
    })
  })
})
