import { describe, expect, it } from 'vitest'
import {
  answerLexically, candidateSpans, createAnswerer, expectedType, isYesNoQuestion, LEXICAL_ANSWERER_NAME, LexicalAnswerer, lexicalCoverage, yesNoAnswer,
} from '../../main/policy/answerer'
import { capitalisedPhrases, choiceOptions, datesAndNumbers } from '../../main/policy/answerer/lexical-spans'

const DERRICKSON = [
  'Scott Derrickson (born July 16, 1966) is an American director, screenwriter and producer.',
  'Edward Davis Wood Jr. (October 10, 1924 – December 10, 1978) was an American filmmaker, actor, and author.',
]

describe('lexical stand-in answerer', () => {
  it('is labelled as the stand-in', async () => {
    const answerer = await createAnswerer({ kind: 'lexical' })
    expect(answerer).toBeInstanceOf(LexicalAnswerer)
    expect(answerer.name).toBe(LEXICAL_ANSWERER_NAME)
    expect(answerer.name).toBe('lexical stand-in')
    expect(answerer.lexical).toBe(true)
    await answerer.dispose()
  })

  it('answers yes/no questions by rule', async () => {
    const answerer = new LexicalAnswerer()
    expect(isYesNoQuestion('Were Scott Derrickson and Ed Wood of the same nationality?')).toBe(true)
    expect(isYesNoQuestion('Is Paris or Lyon larger?')).toBe(false)
    expect(isYesNoQuestion('Who directed Sinister?')).toBe(false)
    expect(await answerer.answer('Were Scott Derrickson and Edward Wood of the same nationality?', DERRICKSON)).toBe('yes')
    expect(await answerer.answer('Are Scott Derrickson and Edward Wood both American?', DERRICKSON)).toBe('yes')
    expect(await answerer.answer('Are Scott Derrickson and Edward Wood both French?', DERRICKSON)).toBe('no')
    // An entity the evidence never mentions cannot be confirmed.
    expect(await answerer.answer('Are Scott Derrickson and Stanley Kubrick both American?', DERRICKSON)).toBe('no')
    expect(yesNoAnswer('Were Alice Smith and Bob Jones of the same nationality?', ['Alice Smith is a British chemist.', 'Bob Jones is a Canadian poet.'])).toBe('no')
    expect(yesNoAnswer('Is the Eiffel Tower in Paris?', ['The Eiffel Tower is a landmark in Paris.'])).toBe('yes')
  })

  it('picks a span from the evidence that the question does not already contain', async () => {
    const answerer = new LexicalAnswerer()
    const evidence = [
      'The Eiffel Tower is a wrought-iron lattice tower in Paris.',
      'It was designed by the company of Gustave Eiffel and completed in March 1889.',
      'The tower is 330 metres tall.',
    ]
    expect(await answerer.answer('When was the Eiffel Tower completed?', evidence)).toBe('March 1889')
    expect(await answerer.answer('Whose company designed the Eiffel Tower?', evidence)).toBe('Gustave Eiffel')
    expect(await answerer.answer('How many metres tall is the tower?', evidence)).toBe('330')
    expect(await answerer.answer('In which city is the Eiffel Tower?', evidence)).toBe('Paris')
    const director = await answerer.answer('Which American director was born on July 16, 1966?', DERRICKSON)
    expect(director).toBe('Scott Derrickson')
    expect(await answerer.answer('Who is this about?', [])).toBe('')
  })

  it('is deterministic and independent of call history', async () => {
    const a = new LexicalAnswerer()
    const b = new LexicalAnswerer()
    const question = 'Who designed the Eiffel Tower?'
    const evidence = ['It was designed by the company of Gustave Eiffel.', 'Maurice Koechlin drew the first sketch.']
    const first = await a.answer(question, evidence)
    await a.answer('Something else entirely?', ['Noise About Other Things.'])
    expect(await a.answer(question, evidence)).toBe(first)
    expect(await b.answer(question, evidence)).toBe(first)
    expect(await a.score(question, evidence, first)).toBe(await b.score(question, evidence, first))
  })

  it('scores a normalised token-overlap proxy: covered answers score higher, all within [ln 0.01, 0]', async () => {
    const answerer = new LexicalAnswerer()
    const question = 'Who designed the Eiffel Tower?'
    const evidence = ['It was designed by the company of Gustave Eiffel.']
    expect(await answerer.score(question, evidence, 'Gustave Eiffel')).toBe(0)
    expect(await answerer.score(question, evidence, 'the Gustave Eiffel!')).toBe(0)
    const half = await answerer.score(question, evidence, 'Gustave Flaubert')
    expect(half).toBeCloseTo(Math.log(0.01 + 0.99 * 0.5), 12)
    const none = await answerer.score(question, evidence, 'Maurice Koechlin')
    expect(none).toBeCloseTo(Math.log(0.01), 12)
    expect(lexicalCoverage(question, [], 'Paris')).toBe(0)
    // yes/no answers are scored by how much of the question's entities the evidence covers.
    expect(lexicalCoverage('Are Scott Derrickson and Edward Wood both American?', DERRICKSON, 'yes')).toBe(1)
    // Every capitalised phrase of the question counts, "American" included: 3 of 5 tokens here.
    expect(lexicalCoverage('Are Scott Derrickson and Edward Wood both American?', DERRICKSON.slice(0, 1), 'no')).toBeCloseTo(0.6, 12)
    await expect(answerer.score(question, evidence, '  ')).rejects.toMatchObject({ code: 'invalid-input' })
  })

  it('reads capitalised phrases, dates and numbers', () => {
    expect(capitalisedPhrases('The film was shot at the University of Oxford by Leonardo da Vinci, in Paris.').map((p) => p.text))
      .toEqual(['University of Oxford', 'Leonardo da Vinci', 'Paris'])
    expect(datesAndNumbers('Born 16 July 1966, she won 3 prizes worth 1,200,000 dollars in 1990s.').map((d) => [d.text, d.type]))
      .toEqual([['16 July 1966', 'date'], ['1990s', 'date'], ['3', 'number'], ['1,200,000', 'number']])
    expect(expectedType('In what year did it open?')).toBe('date')
    expect(expectedType('How many people live there?')).toBe('number')
    expect(expectedType('Which band released it?')).toBe('entity')
    const spans = candidateSpans(['Paris is big.', 'Lyon was founded in 43 BC.'])
    expect(spans.map((s) => [s.text, s.sentence])).toEqual([['Paris', 0], ['Lyon', 1], ['43', 1], ['BC', 1]])
  })

  it('answers "X or Y" questions with one of the options', async () => {
    const answerer = new LexicalAnswerer()
    const evidence = ['Guitar World is a monthly music magazine first published in July 1980.', 'Science News is a magazine founded in 1921.']
    expect(choiceOptions('Which magazine was published first, Guitar World or Science News?')).toEqual(['Guitar World', 'Science News'])
    expect(choiceOptions('Between Iain Banks and Irwin Shaw, which writer was Scottish?')).toEqual(['Iain Banks', 'Irwin Shaw'])
    expect(choiceOptions('Who directed the film shot in or around Leland?')).toBeNull()
    expect(await answerer.answer('Which magazine was published first, Guitar World or Science News?', evidence)).toBe('Science News')
    expect(await answerer.answer('Which magazine was published later, Guitar World or Science News?', evidence)).toBe('Guitar World')
    expect(await answerer.answer('Which singer is American, Mark King or Nick Hexum?', ['Mark King is an English musician.', 'Nick Hexum is an American singer.'])).toBe('Nick Hexum')
  })

  it('agrees with the exported helper', () => {
    expect(answerLexically('Where is the tower?', ['The tower stands in Paris.'])).toBe('Paris')
  })
})
