import { createHash } from 'node:crypto'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { describe, expect, it } from 'vitest'
import { DEMO_WORLD_VERSION, type DemoWorld, generateDemoWorld } from '../../main/corpus/demo-world'
import { mentions } from '../../main/corpus/demo-world/text'
import type { GoldQuestion, SourceDocument } from '../../main/corpus/types'

const worlds = new Map<string, DemoWorld>()
/** Generation is deterministic, so worlds are shared between tests instead of rebuilt. */
function world(seed: number, size: number): DemoWorld {
  const key = `${seed}/${size}`
  let w = worlds.get(key)
  if (!w) {
    w = generateDemoWorld({ seed, size })
    worlds.set(key, w)
  }
  return w
}

const SAMPLES: [number, number][] = [
  [1, 1],
  [2, 1],
  [3, 1],
  [42, 1],
  [2024, 2],
  [7, 10],
]

const byTitle = (w: DemoWorld): Map<string, SourceDocument> => new Map(w.documents.map((d) => [d.title, d]))
const evidenceOf = (q: GoldQuestion): string[] => (q.metadata?.evidence as string[] | undefined) ?? []
const templateOf = (q: GoldQuestion): string => String(q.metadata?.template)

describe('demo world: determinism and scale', () => {
  it('gives byte-identical output for the same seed and size', () => {
    const a = generateDemoWorld({ seed: 42, size: 1 })
    const b = generateDemoWorld({ seed: 42, size: 1 })
    expect(b).toEqual(a)
    expect(JSON.stringify(b)).toBe(JSON.stringify(a))
  })

  it('matches the fingerprint recorded for its content version', () => {
    // Ingest caches demo corpora by (version, seed, size). If this fails after an intended change to the
    // generated text or questions, bump DEMO_WORLD_VERSION and record the new fingerprint here. It also
    // shows that the output does not depend on the machine it is generated on.
    const sha = createHash('sha256').update(JSON.stringify(world(1, 1))).digest('hex')
    expect({ version: DEMO_WORLD_VERSION, sha }).toEqual({
      version: 1,
      sha: '895a7502603ce5aa87b9952fd07d77a0034c4f3922a48eaa8e8ebc2a33ae0795',
    })
  })

  it('gives a different world for a different seed', () => {
    const a = world(1, 1)
    const b = world(2, 1)
    const titlesA = new Set(a.documents.map((d) => d.title))
    const shared = b.documents.filter((d) => titlesA.has(d.title)).length
    expect(shared).toBeLessThan(b.documents.length / 10)
    expect(b.questions.map((q) => q.question)).not.toEqual(a.questions.map((q) => q.question))
  })

  it('rejects a seed that is not a safe integer and a size that is not positive', () => {
    expect(() => generateDemoWorld({ seed: 1.5, size: 1 })).toThrow(RangeError)
    expect(() => generateDemoWorld({ seed: 1, size: 0 })).toThrow(RangeError)
    expect(() => generateDemoWorld({ seed: 1, size: Number.NaN })).toThrow(RangeError)
  })

  it('scales linearly with size', () => {
    const one = world(7, 1)
    const ten = world(7, 10)
    expect(one.documents.length).toBeGreaterThanOrEqual(60)
    expect(one.documents.length).toBeLessThanOrEqual(100)
    const ratio = ten.documents.length / one.documents.length
    expect(ratio).toBeGreaterThan(9)
    expect(ratio).toBeLessThan(11)
    expect(ten.stats.words / one.stats.words).toBeGreaterThan(8)
    expect(ten.questions.length / one.questions.length).toBeGreaterThan(8)
    for (const kind of ['city', 'organisation', 'person'] as const) {
      expect(ten.stats.entities[kind]).toBe(10 * one.stats.entities[kind])
    }
  })

  it('reports statistics that match the output', () => {
    for (const [seed, size] of SAMPLES) {
      const w = world(seed, size)
      expect(w.stats.articles).toBe(w.documents.length)
      expect(w.stats.sentences).toBe(w.documents.reduce((n, d) => n + (d.sentences?.length ?? 0), 0))
      expect(w.stats.questions).toBe(w.questions.length)
      expect(w.stats.bridgeQuestions + w.stats.comparisonQuestions).toBe(w.questions.length)
      expect(w.stats.inconsistentQuestions).toBe(0)
    }
  })

  it('generates size 100 (timing reported, not asserted)', () => {
    const started = performance.now()
    const w = generateDemoWorld({ seed: 100, size: 100 })
    const ms = performance.now() - started
    const { articles, sentences, words, questions, yesNoQuestions } = w.stats
    console.info(`demo world size 100: ${articles} articles, ${sentences} sentences, ${words} words, ${questions} questions (${yesNoQuestions} yes/no) in ${ms.toFixed(0)} ms`)
    expect(articles).toBeGreaterThan(8000)
    expect(questions).toBeGreaterThan(0.9 * articles)
    expect(new Set(w.documents.map((d) => d.title)).size).toBe(articles)
    expect(w.stats.inconsistentQuestions).toBe(0)
  })
})

describe('demo world: documents', () => {
  it('keeps text equal to the sentences joined by single spaces', () => {
    for (const [seed, size] of SAMPLES) {
      for (const d of world(seed, size).documents) {
        expect(d.sentences?.length).toBeGreaterThan(2)
        expect(d.text).toBe(d.sentences?.join(' '))
      }
    }
  })

  it('writes every sentence as one unambiguous sentence', () => {
    for (const [seed, size] of SAMPLES) {
      for (const d of world(seed, size).documents) {
        for (const s of d.sentences ?? []) {
          expect(s, d.title).toMatch(/^[A-Z].*[a-z0-9)]\.$/)
          expect(s).not.toMatch(/[\n\r]/)
          expect(s).not.toMatch(/\s{2}/)
          // No period, question mark or exclamation mark before the final period: nothing to split on.
          expect(s.slice(0, -1), s).not.toMatch(/[.?!]/)
        }
      }
    }
  })

  it('splits back into exactly its sentences under a standard English sentence splitter', () => {
    const nlp = winkNLP(model)
    for (const [seed, size] of SAMPLES.slice(0, 4)) {
      for (const d of world(seed, size).documents) {
        expect(nlp.readDoc(d.text).sentences().out(), d.title).toEqual(d.sentences)
      }
    }
  })

  it('has unique titles and ids, and no title hidden inside another', () => {
    for (const [seed, size] of SAMPLES) {
      const w = world(seed, size)
      const titles = w.documents.map((d) => d.title)
      expect(new Set(titles).size).toBe(titles.length)
      expect(new Set(w.documents.map((d) => d.externalId)).size).toBe(titles.length)
      expect(new Set(w.questions.map((q) => q.externalId)).size).toBe(w.questions.length)
      if (size <= 2) {
        for (const a of titles) for (const b of titles) if (a !== b) expect(mentions(b, a), `${a} in ${b}`).toBe(false)
      }
    }
  })

  it('links articles: a person names the employer and birthplace, an organisation its founder', () => {
    const w = world(42, 1)
    const docs = byTitle(w)
    const links = w.documents.filter((d) => w.documents.some((o) => o !== d && mentions(d.text, o.title)))
    expect(links.length).toBeGreaterThan(0.9 * w.documents.length)
    const orgs = w.documents.filter((d) => d.metadata?.kind === 'organisation')
    for (const org of orgs) {
      const people = w.documents.filter((p) => p.metadata?.kind === 'person' && mentions(org.text, p.title))
      expect(people.length, org.title).toBeGreaterThan(0)
    }
    expect(docs.size).toBe(w.documents.length)
  })

  it('contains what entity typing will need: varied dates, numbers, nationality adjectives, honorifics, possessives', () => {
    const text = world(42, 1).documents.map((d) => d.text).join(' ')
    expect(text).toMatch(/\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b/)
    expect(text).toMatch(/\b(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}\b/)
    expect(text).toMatch(/\b\d{4}-\d{2}-\d{2}\b/)
    expect(text).toMatch(/\b\d{1,3}(,\d{3})+\b/)
    expect(text).toMatch(/\b(Dr|Professor) [A-Z][a-z]+/)
    expect(text).toMatch(/[a-z]'s\b/)
    expect(text).toMatch(/\bis an? [A-Z][a-z]+(ian|oran|eshi|andish|ovian|enese|ari|ayan|ethian|ondese|ican|uli) /)
  })
})

describe('demo world: questions', () => {
  it('asks about one question per article or so, bridge and comparison, with yes and no answers', () => {
    for (const [seed, size] of SAMPLES) {
      const w = world(seed, size)
      expect(w.questions.length).toBeGreaterThanOrEqual(0.8 * w.documents.length)
      const bridge = w.questions.filter((q) => q.type === 'bridge').length
      expect(bridge / w.questions.length).toBeGreaterThan(0.4)
      expect(w.questions.some((q) => q.type === 'comparison' && q.answers[0] === 'yes')).toBe(true)
      expect(w.questions.some((q) => q.type === 'comparison' && q.answers[0] === 'no')).toBe(true)
      expect(new Set(w.questions.map((q) => q.question)).size).toBe(w.questions.length)
    }
  })

  it('points every supporting fact at a sentence that states it', () => {
    for (const [seed, size] of SAMPLES) {
      const w = world(seed, size)
      const docs = byTitle(w)
      for (const q of w.questions) {
        const evidence = evidenceOf(q)
        expect(q.supportingFacts).toHaveLength(2)
        expect(evidence).toHaveLength(2)
        expect(q.supportingDocs).toEqual([...new Set(q.supportingFacts.map((f) => f.title))])
        q.supportingFacts.forEach((f, i) => {
          const sentence = docs.get(f.title)?.sentences?.[f.sentence]
          expect(sentence, `${q.question} -> ${f.title}#${f.sentence}`).toBeDefined()
          expect(sentence, q.question).toContain(evidence[i])
        })
      }
    }
  })

  it('makes bridge questions need both hops', () => {
    for (const [seed, size] of SAMPLES) {
      const w = world(seed, size)
      const docs = byTitle(w)
      const corpus = w.documents.map((d) => d.text).join('\n')
      for (const q of w.questions.filter((x) => x.type === 'bridge')) {
        const bridge = String(q.metadata?.bridge)
        const [first, second] = q.supportingFacts
        if (!first || !second) throw new Error(`${q.question}: two facts expected`)
        const answer = q.answers[0] ?? ''
        // The question names the start, never the bridge or the answer.
        expect(mentions(q.question, first.title), q.question).toBe(true)
        expect(mentions(q.question, bridge), q.question).toBe(false)
        for (const a of q.answers) expect(mentions(q.question, a), q.question).toBe(false)
        // Hop one (in the start's article) names the bridge; hop two (in the bridge's article) states the answer.
        expect(second.title).toBe(bridge)
        expect(docs.get(first.title)?.sentences?.[first.sentence]).toContain(bridge)
        expect(docs.get(second.title)?.sentences?.[second.sentence]).toContain(answer)
        expect(docs.get(first.title)?.sentences?.some((s) => mentions(s, answer)), q.question).toBe(false)
        expect(corpus).toContain(answer)
      }
    }
  })

  it('gives comparison answers that follow from the compared values', () => {
    for (const [seed, size] of SAMPLES) {
      const w = world(seed, size)
      const countries = w.documents.filter((d) => d.metadata?.kind === 'country')
      for (const q of w.questions.filter((x) => x.type === 'comparison')) {
        const [a, b] = q.supportingFacts.map((f) => f.title)
        const [va, vb] = evidenceOf(q)
        if (!a || !b || va === undefined || vb === undefined) throw new Error(`${q.question}: two facts expected`)
        expect(a).not.toBe(b)
        expect(mentions(q.question, a) && mentions(q.question, b), q.question).toBe(true)
        const answer = q.answers[0]
        const num = (v: string): number => Number(v.replace(/,/g, ''))
        switch (templateOf(q)) {
          case 'founded-first':
          case 'born-first':
          case 'older-city':
          case 'earlier-work':
            expect(num(va)).not.toBe(num(vb))
            expect(answer, q.question).toBe(num(va) < num(vb) ? a : b)
            break
          case 'larger-city':
          case 'longer-river':
            expect(answer, q.question).toBe(num(va) > num(vb) ? a : b)
            break
          case 'both-from-country': {
            const country = countries.find((c) => mentions(q.question, c.title))
            if (!country) throw new Error(`${q.question}: no country named`)
            // The country's own article gives its nationality adjective as the name of its language.
            const ofCountry = (v: string): boolean => country.text.includes(`The official language is ${v},`)
            expect(answer, q.question).toBe(ofCountry(va) && ofCountry(vb) ? 'yes' : 'no')
            break
          }
          default:
            expect(answer, q.question).toBe(va === vb ? 'yes' : 'no')
        }
      }
    }
  })

  it('numbers questions stably from the seed', () => {
    const w = world(42, 1)
    expect(w.questions[0]?.externalId).toBe('demo-42-1-q000001')
    expect(w.questions.every((q) => /^demo-42-1-q\d{6}$/.test(q.externalId))).toBe(true)
  })
})
