import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { detectFormat, parseFile, SUPPORTED_EXTENSIONS, type ParsedFile, type ParseOptions } from '../../main/corpus/parsers'
import { domText, type DomNode } from '../../main/corpus/parsers/dom-text'
import { htmlNestingDepth } from '../../main/corpus/parsers/html-depth'
import { jsonErrorOffset } from '../../main/corpus/parsers/json-syntax'
import { markdownToText } from '../../main/corpus/parsers/markdown'
import { IngestFileError, type IngestFailureReason, type ParsedSource } from '../../main/corpus/types'
import { minimalDocx, minimalPdf, zipWithoutDocument } from '../fixtures/corpus/make-binary'
import { tempDir } from '../helpers/services'
import { sharedPath } from '../helpers/shared-data'
import { handZip } from '../helpers/zip'

const FIXTURES = new URL('../fixtures/corpus/files/', import.meta.url).pathname
const OPTIONS: ParseOptions = { maxFileBytes: 5 * 1024 * 1024 }

const parseFixture = (name: string, options: ParseOptions = OPTIONS): Promise<ParsedSource> => parseFile(join(FIXTURES, name), name, options)

/** Writes `content` as `name` in the temp dir and parses it. */
let tmp: ReturnType<typeof tempDir>
const parseWritten = (name: string, content: string | Uint8Array, options: ParseOptions = OPTIONS): Promise<ParsedFile> => {
  const path = join(tmp.dir, name)
  writeFileSync(path, content)
  return parseFile(path, `inbox/${name}`, options)
}

/** The IngestFileError a parse rejects with; fails the test when it resolves or throws something else. */
async function failure(promise: Promise<unknown>): Promise<IngestFileError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(IngestFileError)
  return error as IngestFileError
}

const expectFailure = async (promise: Promise<unknown>, reason: IngestFailureReason, message: RegExp) => {
  const error = await failure(promise)
  expect(error.reason).toBe(reason)
  expect(error.message).toMatch(message)
  return error
}

beforeAll(() => {
  tmp = tempDir('harness-lab-parsers-')
})
afterAll(() => tmp.cleanup())

describe('format detection', () => {
  it('maps extensions case-insensitively and refuses others', () => {
    expect(detectFormat('a/b/Notes.TXT')).toBe('txt')
    expect(detectFormat('guide.markdown')).toBe('md')
    expect(detectFormat('page.htm')).toBe('html')
    expect(detectFormat('paper.pdf')).toBe('pdf')
    expect(detectFormat('memo.docx')).toBe('docx')
    expect(detectFormat('rows.ndjson')).toBe('jsonl')
    expect(detectFormat('data.json')).toBe('json')
    expect(detectFormat('memo.doc')).toBeNull()
    expect(detectFormat('README')).toBeNull()
    expect(SUPPORTED_EXTENSIONS).toEqual(expect.arrayContaining(['.txt', '.md', '.html', '.pdf', '.docx', '.json', '.jsonl']))
  })
})

describe('plain text', () => {
  it('keeps the text as written, tidying line endings and trailing spaces', async () => {
    const { documents, questions } = await parseFixture('harbour_notes.txt')
    expect(questions).toEqual([])
    expect(documents).toHaveLength(1)
    const [doc] = documents
    expect(doc).toMatchObject({ externalId: 'harbour_notes.txt', title: 'harbour notes', source: { path: 'harbour_notes.txt' } })
    expect(doc!.text).not.toMatch(/\r| +\n/)
    expect(doc!.text).toContain('recalibrated on the third of April.\nReadings before')
    expect(doc!.text).toContain('\n    Indented line kept as written.')
  })

  it('decodes UTF-16 files that carry a byte-order mark', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Tidal notes in UTF-16.', 'utf16le')])
    const { documents } = await parseWritten('wide.txt', utf16)
    expect(documents[0]!.text).toBe('Tidal notes in UTF-16.')
  })
})

describe('markdown', () => {
  it('strips syntax and keeps the words, code and table cells', async () => {
    const [doc] = (await parseFixture('field-guide.md')).documents
    expect(doc!.title).toBe('Shorebirds of Orrin Bay')
    const text = doc!.text
    expect(text).toContain('The grey plover and the ringed plover both winter on the mudflats near Castor Point.')
    expect(text).toContain('See also the survey notes and https://example.org/tides.')
    expect(text).toContain('Walk the transect at low tide.\nRecord each bird once.\nBinoculars checked')
    expect(text).toContain('Counts made in fog are flagged, not discarded.')
    expect(text).toContain('Species\tWinter count\tTrend\nGrey plover\t212\tstable')
    expect(text).toContain('total = sum(counts) # **not** emphasis') // code is content, kept as text
    expect(text).toContain('snake_case_names')
    expect(text).toContain('a literal *asterisk* stays')
    expect(text).toContain('Setext heading\n\nLast paragraph with a footnote.')
    expect(text).toContain('Counts from the winter season.')
    for (const syntax of ['](', '![', '**grey', '# Shore', '## ', '```', '|---', 'reviewer', '[^1]', 'title: Front', '> Counts', 'example.org/notes', '-----']) {
      expect(text).not.toContain(syntax)
    }
  })

  it('takes the title from front matter, then the file name, when there is no heading', () => {
    expect(markdownToText('---\ntitle: "Tide tables"\n---\nBody.').title).toBe('Tide tables')
    expect(markdownToText('Body only.').title).toBeNull()
  })

  it('flattens pandoc grid tables, nested ones included', () => {
    const grid = ['+-----------------+', '| RESULTS         |', '| +------+------+ |', '| | Rank | Time | |', '| +======+======+ |', '| | 1    | 3h   | |', '| +------+------+ |', '+-----------------+'].join('\n')
    expect(markdownToText(grid).text).toBe('RESULTS\nRank\tTime\n1\t3h')
  })

  it('leaves a bracket followed by non-URL parentheses alone, as CommonMark does', () => {
    expect(markdownToText('See note [8](pages 213-214) and [site](https://x.org).').text).toBe('See note [8](pages 213-214) and site.')
    expect(markdownToText('[![build](https://ci.example/badge.svg)](https://ci.example) Release notes').text).toBe('Release notes')
  })
})

describe('html', () => {
  it('extracts the article with Readability and drops navigation, scripts and styles', async () => {
    const [doc] = (await parseFixture('lighthouse.html')).documents
    expect(doc!.title).toBe('The Castor Point Light')
    expect(doc!.metadata).toEqual({ extractor: 'readability' })
    expect(doc!.text).toContain('It was first lit in 1871 and burned colza oil')
    expect(doc!.text).toContain('Year\tEvent\n1871\tFirst lit\n1987\tAutomated')
    expect(doc!.text).toMatch(/paraffin in 1904\.\n\nIts lantern/) // blocks stay apart
    for (const junk of ['SCRIPT-SHOULD-NOT-APPEAR', 'NAVIGATION-SHOULD-NOT-APPEAR', 'font-family', 'trackingMarker']) expect(doc!.text).not.toContain(junk)
  })

  it('falls back to the visible body text when Readability finds no article', async () => {
    // Readability discards a heading that repeats the title, leaving nothing; the body text still has it.
    const html = '<html><head><title>Harbour Master</title></head><body><h1>Harbour Master</h1><div style="display:none">HIDDEN</div></body></html>'
    const [doc] = (await parseWritten('title-only.html', html)).documents
    expect(doc).toMatchObject({ title: 'Harbour Master', text: 'Harbour Master', metadata: { extractor: 'body' } })
  })

  it('accepts a bare fragment and takes the title from the first h1', async () => {
    const [doc] = (await parseWritten('fragment.html', '<h1>Pell Quay</h1><p>The quay was rebuilt in stone in 1802 after a winter storm.</p>')).documents
    expect(doc!.title).toBe('Pell Quay')
    expect(doc!.text).toContain('The quay was rebuilt in stone in 1802')
  })

  it('honours a declared legacy charset when the bytes are not UTF-8', async () => {
    const latin1 = Buffer.from('<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><p>Caf\xe9 on the quay.</p></body></html>', 'latin1')
    const [doc] = (await parseWritten('legacy.html', latin1)).documents
    expect(doc!.title).toBe('Café')
    expect(doc!.text).toContain('Café on the quay.')
  })

  it('refuses a page with no visible text', async () => {
    await expectFailure(parseWritten('blank.html', '<html><body><script>var a = 1</script></body></html>'), 'empty', /blank\.html: no text/)
  })
})

describe('pdf', () => {
  it('joins the text of every page and records page offsets and the document title', async () => {
    const pdf = minimalPdf([['Castor Point Light (1871)', 'Second-order lens.'], ['Automated in 1987.']], { title: 'Light Survey' })
    const [doc] = (await parseWritten('survey.pdf', pdf)).documents
    expect(doc!.title).toBe('Light Survey')
    expect(doc!.text).toBe('Castor Point Light (1871)\nSecond-order lens.\n\nAutomated in 1987.')
    expect(doc!.metadata).toEqual({ pages: 2, pageOffsets: [0, doc!.text.indexOf('Automated')] })
  })

  it('uses the file name as title when the PDF has none', async () => {
    const [doc] = (await parseWritten('tide_log.pdf', minimalPdf([['High water 06:12.']]))).documents
    expect(doc!.title).toBe('tide log')
  })

  it('refuses corrupt PDFs, files without a PDF header and PDFs without text', async () => {
    const valid = minimalPdf([['Some text.']])
    await expectFailure(parseWritten('broken.pdf', '%PDF-1.4\n1 0 obj << garbage'), 'corrupt', /broken\.pdf: corrupt or unsupported PDF/)
    await expectFailure(parseWritten('truncated.pdf', valid.subarray(0, 120)), 'corrupt', /truncated\.pdf/)
    await expectFailure(parseWritten('fake.pdf', 'just some text pretending'), 'corrupt', /not a PDF \(no %PDF- header/)
    await expectFailure(parseWritten('scan.pdf', minimalPdf([[]])), 'empty', /none of its 1 page\(s\) has a text layer/)
  })
})

describe('docx', () => {
  it('extracts paragraphs with mammoth', async () => {
    const docx = await minimalDocx(['Keeper\u2019s log, winter 1904.', 'Paraffin delivered by the supply boat & stored.'])
    const [doc] = (await parseWritten('keeper_log.docx', docx)).documents
    expect(doc).toMatchObject({ externalId: 'inbox/keeper_log.docx', title: 'keeper log' })
    expect(doc!.text).toBe('Keeper\u2019s log, winter 1904.\n\nParaffin delivered by the supply boat & stored.')
  })

  it('refuses files that are not DOCX archives or lack the document part', async () => {
    await expectFailure(parseWritten('old.docx', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3])), 'corrupt', /no ZIP signature.*old \.doc file/)
    await expectFailure(parseWritten('notword.docx', await zipWithoutDocument()), 'corrupt', /notword\.docx: corrupt DOCX/)
    await expectFailure(parseWritten('cut.docx', (await minimalDocx(['text'])).subarray(0, 60)), 'corrupt', /cut\.docx: corrupt DOCX/)
    await expectFailure(parseWritten('blank.docx', await minimalDocx(['', '  '])), 'empty', /blank\.docx: no text/)
  })
})

describe('json and jsonl', () => {
  it('makes one document per record, with ids, titles, fallbacks and scalar metadata', async () => {
    const { documents } = await parseFixture('passages.json')
    expect(documents.map((doc) => doc.externalId)).toEqual(['p-1', 'passages.json#1', '7'])
    expect(documents[0]).toEqual({
      externalId: 'p-1',
      title: 'Pell Quay',
      text: 'Pell Quay is the oldest landing stage in Orrin Bay.',
      source: { path: 'passages.json', record: 0 },
      metadata: { year: 1802 },
    })
    expect(documents[2]!.title).toBe('passages #2')
  })

  it('reads JSONL line by line, skipping blank lines and recording offsets', async () => {
    const { documents } = await parseFixture('passages.jsonl')
    const secondLine = readFileSync(join(FIXTURES, 'passages.jsonl'), 'utf8').indexOf('{"id": "q-2"')
    expect(documents.map((doc) => [doc.externalId, doc.source])).toEqual([
      ['q-1', { path: 'passages.jsonl', record: 0, offset: 0 }],
      ['q-2', { path: 'passages.jsonl', record: 1, offset: secondLine }],
    ])
  })

  it('uses configured field names, and reads one record object', async () => {
    const { documents } = await parseFixture('custom-fields.json', { ...OPTIONS, json: { idField: 'key', titleField: 'heading', textField: 'body' } })
    expect(documents).toEqual([
      { externalId: 'note-9', title: 'Tide tables', text: 'Spring tides in Orrin Bay reach five metres.', source: { path: 'custom-fields.json', record: 0 } },
    ])
  })

  it('names the record and the field when the text is missing', async () => {
    await expectFailure(parseFixture('custom-fields.json'), 'json', /custom-fields\.json, record 0: the record has no "text" field \(fields present: key, heading, body\)/)
    await expectFailure(
      parseWritten('rows.jsonl', '{"id": 1, "text": "fine"}\n{"id": 2, "body": "wrong key"}\n', { ...OPTIONS, strictJsonl: true }),
      'json',
      /rows\.jsonl, line 2: the record has no "text" field/,
    )
    await expectFailure(parseWritten('typed.json', '[{"text": 42}]'), 'json', /record 0: field "text" must be a string, found number/)
    await expectFailure(parseWritten('qa.jsonl', '{"id": "q", "question": "?", "golden_answers": ["a"]}'), 'json', /looks like a benchmark file .* import it as a benchmark/)
    await expectFailure(parseWritten('blank.jsonl', '{"text": "  "}'), 'empty', /line 1: field "text" is empty/)
    await expectFailure(parseWritten('dupe.json', '[{"id": "a", "text": "x"}, {"id": "a", "text": "y"}]'), 'json', /record 1: id "a" is already used at record 0/)
    await expectFailure(parseWritten('scalar.json', '"just a string"'), 'json', /expected an array of records or one record object, found string/)
    await expectFailure(parseWritten('nested.json', '[["not", "an object"]]'), 'json', /record 0: expected a record object, found an array/)
  })

  it('reports malformed JSON with line and column', async () => {
    const error = await expectFailure(parseWritten('broken.json', '[\n  {"id": 1, "text": "ok"},\n  {"id": 2, "text": }\n]'), 'json', /broken\.json: malformed JSON at line 3, column 21/)
    expect(error.message).not.toContain('"text": }') // the source is not echoed back
    await expectFailure(parseWritten('cut.json', '[{"id": 1, "text": "unterminated'), 'json', /cut\.json: malformed JSON at line 1, column 33: Unterminated string/)
    await expectFailure(parseWritten('nothing.json', '[]'), 'empty', /no records/)
  })

  it('reports a malformed JSONL line with its line number', async () => {
    const text = '{"id": 1, "text": "one"}\n\n{"id": 2, "text": "two",}\n{"id": 3, "text": "three"}\n'
    await expectFailure(parseWritten('bad.jsonl', text, { ...OPTIONS, strictJsonl: true }), 'json', /bad\.jsonl: malformed JSON at line 3, column 25/)
    await expectFailure(parseWritten('blank-lines.jsonl', '\n  \n\n'), 'empty', /no records \(only blank lines\)/)
  })

  it('locates syntax errors that V8 reports without a position', () => {
    expect(jsonErrorOffset('{"a":}')).toBe(5)
    expect(jsonErrorOffset('[1, 2]')).toBe(-1)
    expect(jsonErrorOffset('{"a": "\\x"}')).toBe(8) // the bad escape character
    expect(jsonErrorOffset('[1] 2')).toBe(4)
  })
})

describe('files that cannot be ingested', () => {
  it('refuses a file over the size limit before reading it', async () => {
    const error = await expectFailure(parseWritten('big.txt', 'x'.repeat(2048), { maxFileBytes: 1024 }), 'too-large', /big\.txt: 2\.0 KiB is over the 1\.0 KiB limit/)
    expect(error.message).toMatch(/raise the limit or split the file/)
  })

  it('refuses empty and whitespace-only files', async () => {
    await expectFailure(parseWritten('empty.md', ''), 'empty', /empty\.md: the file is empty \(0 bytes\)/)
    await expectFailure(parseWritten('spaces.txt', ' \n\t\n'), 'empty', /spaces\.txt: no text/)
    await expectFailure(parseWritten('syntax-only.md', '# \n\n---\n\n![](a.png)\n'), 'empty', /no text is left once the Markdown syntax is removed/)
  })

  it('refuses binary content in text formats', async () => {
    await expectFailure(parseWritten('image.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])), 'binary', /NUL bytes \(first at byte 8\)/)
    await expectFailure(parseWritten('control.md', Buffer.from('ok\x01\x02\x03\x04\x05\x06 text\x07\x08')), 'binary', /control bytes/)
    await expectFailure(parseWritten('packed.json', Buffer.from([0x7b, 0, 0x7d])), 'binary', /packed\.json/)
  })

  it('refuses invalid UTF-8 and says where', async () => {
    const latin1 = Buffer.concat([Buffer.from('first line\nsecond line has caf'), Buffer.from([0xe9]), Buffer.from(' in Latin-1\n')])
    await expectFailure(parseWritten('latin1.txt', latin1), 'encoding', /latin1\.txt: not valid UTF-8 \(byte 0xE9 at offset 30, line 2\); re-save the file as UTF-8/)
    // A genuine U+FFFD before the bad byte must not shift the reported position.
    const withReplacement = Buffer.concat([Buffer.from('\uFFFD ok '), Buffer.from([0xc3, 0x28])])
    await expectFailure(parseWritten('mixed.md', withReplacement), 'encoding', /byte 0xC3 at offset 7, line 1/)
  })

  it('refuses unsupported extensions and missing files', async () => {
    await expectFailure(parseWritten('sheet.xlsx', 'PK'), 'unsupported', /sheet\.xlsx: unsupported file type; supported extensions are \.txt/)
    await expectFailure(parseFile(join(tmp.dir, 'gone.txt'), 'gone.txt', OPTIONS), 'unreadable', /gone\.txt: cannot read: the file does not exist/)
    await expectFailure(parseFile(tmp.dir, 'folder.txt', OPTIONS), 'unreadable', /folder\.txt: not a regular file/)
  })
})

const WIKI_PAGES = sharedPath('data/wikipedia-md-300/pages')
if (!existsSync(WIKI_PAGES)) console.log(`[corpus-parsers] skipping Wikipedia Markdown checks: ${WIKI_PAGES} is absent`)
describe.skipIf(!existsSync(WIKI_PAGES))('real data: Wikipedia articles as Markdown', () => {
  it('parses a sample of pages to non-empty text without Markdown syntax', async () => {
    const names = readdirSync(WIKI_PAGES)
      .filter((name) => name.endsWith('.md'))
      .sort()
    const sample = names.filter((_, i) => i % 30 === 0) // 10 of the 300, spread over the alphabet
    expect(sample.length).toBeGreaterThanOrEqual(10)
    for (const name of sample) {
      const [doc] = (await parseFile(join(WIKI_PAGES, name), name, OPTIONS)).documents
      expect(doc!.text.length, name).toBeGreaterThan(1000)
      expect(doc!.title, name).toBe(name.replace(/\.md$/, '').replace(/_+/g, ' '))
      expect(doc!.text, name).not.toMatch(/^#{1,6} |^[ \t]*\+[-=+]{3,}|^\|[-:| ]+\|$|!\[[^\]]*\]\(|\]\(https?:|```|\*\*\w/m)
    }
  })
})

const SEC_HTML = sharedPath('data/sec-filings/10k_html')
if (!existsSync(SEC_HTML)) console.log(`[corpus-parsers] skipping SEC 10-K HTML checks: ${SEC_HTML} is absent`)
describe.skipIf(!existsSync(SEC_HTML))('real data: SEC 10-K inline-XBRL HTML', () => {
  it('extracts the filing text and leaves out hidden XBRL data', async () => {
    const name = 'aapl-10-k-2024-11-01.html'
    const started = performance.now()
    const [doc] = (await parseFile(join(SEC_HTML, name), name, { maxFileBytes: 10 * 1024 * 1024 })).documents
    const ms = performance.now() - started
    console.log(`[corpus-parsers] ${name}: ${(statSync(join(SEC_HTML, name)).size / 1e6).toFixed(1)} MB of HTML -> ${doc!.text.length} chars of text in ${ms.toFixed(0)} ms`)
    expect(doc!.text.length).toBeGreaterThan(150_000)
    expect(doc!.text).toContain('Apple Inc.')
    expect(doc!.text).toMatch(/Total net sales\t\$\t391,035/)
    expect(doc!.text).not.toMatch(/<script|<\/?div|<span|us-gaap:|xbrli:|iso4217:/)
    expect(doc!.metadata).toEqual({ extractor: 'readability' })
  })
})

/** A ZIP archive written by hand, so a test can make one lie about its sizes. Entries are deflated unless `stored`. */
const deepPage = (n: number, inner = '<p>Ada Lovelace wrote her notes in London in 1843.</p>'): string =>
  `<html><head><title>Deep</title></head><body>${'<div>'.repeat(n)}${inner}${'</div>'.repeat(n)}</body></html>`

describe('hostile files', () => {
  it('measures HTML nesting before building a DOM, the way the tree builder will see it', () => {
    expect(htmlNestingDepth('<html><body><div><p>a</p></div></body></html>')).toBe(4)
    // Void elements, self-closed tags and raw text open no level; "<p>" and "<li>" close an open one.
    expect(htmlNestingDepth('<div><br><img src="a>b"><x/><script>if (a < b) { "<div><div>" }</script></div>')).toBe(1)
    expect(htmlNestingDepth(`<body>${'<p>text '.repeat(500)}</body>`)).toBe(2)
    expect(htmlNestingDepth(`<ul>${'<li>item '.repeat(500)}</ul>`)).toBe(2)
    // A stray closing tag closes nothing; a matching one closes everything opened after it.
    expect(htmlNestingDepth('<div></span><section><b><i>x</div><div>y</div>')).toBe(4)
    expect(htmlNestingDepth(deepPage(5_000))).toBe(5_003)
    expect(htmlNestingDepth(deepPage(5_000), 100)).toBe(101) // stops early
  })

  it('reads a deeply nested page with the plain extractor instead of Readability, and says so', async () => {
    const started = performance.now()
    const { documents, notes } = await parseWritten('deep.html', deepPage(4_000))
    expect(performance.now() - started).toBeLessThan(10_000) // Readability alone took minutes on this page
    expect(documents[0]).toMatchObject({ title: 'Deep', text: 'Ada Lovelace wrote her notes in London in 1843.', metadata: { extractor: 'plain', nestingDepth: 4_003 } })
    expect(notes).toEqual([expect.stringMatching(/plain extractor, not Readability: HTML nesting depth 4,003 is over 200/)])
    // Below the threshold Readability still reads the page.
    const shallow = await parseWritten('shallow.html', deepPage(20))
    expect(shallow.documents[0]!.metadata).toEqual({ extractor: 'readability' })
    expect(shallow.notes).toEqual([])
  })

  it('refuses a page nested past the hard limit before parsing it', async () => {
    await expectFailure(parseWritten('too-deep.html', deepPage(2_000), { ...OPTIONS, html: { maxDepth: 1_000 } }), 'too-large', /too-deep\.html: HTML nesting too deep: elements nest more than 1,000 levels/)
  })

  it('walks DOM text with its own stack: any depth, and wide nodes in linear time', async () => {
    const { parseHTML } = await import('linkedom')
    const deep = parseHTML(deepPage(30_000)).document as unknown as { documentElement: DomNode }
    expect(domText(deep.documentElement)).toContain('Ada Lovelace wrote her notes')
    const wide = parseHTML(`<html><body>${'<span>w </span>'.repeat(50_000)}</body></html>`).document as unknown as { body: DomNode }
    const started = performance.now()
    expect(domText(wide.body).length).toBeGreaterThan(50_000)
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('fails a ZIP-bomb DOCX on its declared size, before inflating anything', async () => {
    const zeros = new Uint8Array(8 * 1024 * 1024)
    const bomb = handZip([{ name: '[Content_Types].xml', data: Buffer.from('<Types/>') }, { name: 'word/document.xml', data: zeros }])
    expect(bomb.length).toBeLessThan(64 * 1024)
    await expectFailure(
      parseWritten('bomb.docx', bomb, { ...OPTIONS, maxDecompressedBytes: 1024 * 1024 }),
      'too-large',
      /bomb\.docx: the archive declares more than 1\.0 MiB of uncompressed content .* "word\/document\.xml".*ZIP bomb/,
    )
  })

  it('stops inflating an entry that lies about its size', async () => {
    const liar = handZip([{ name: 'word/document.xml', data: new Uint8Array(8 * 1024 * 1024), declaredSize: 1000 }])
    await expectFailure(parseWritten('liar.docx', liar), 'too-large', /liar\.docx: entry "word\/document\.xml" inflates past the 1000 B it declares/)
    const short = handZip([{ name: 'word/document.xml', data: Buffer.from('<w:document/>'), declaredSize: 5000 }])
    await expectFailure(parseWritten('short.docx', short), 'corrupt', /short\.docx: corrupt DOCX: entry "word\/document\.xml" inflates to 13 bytes, not the 5000/)
    const encrypted = handZip([{ name: 'word/document.xml', data: Buffer.from('x') }])
    new DataView(encrypted.buffer).setUint16(encrypted.length - 22 - 46 - 'word/document.xml'.length + 8, 1, true)
    await expectFailure(parseWritten('locked.docx', encrypted), 'corrupt', /locked\.docx: the DOCX is encrypted/)
  })

  it('still reads a DOCX whose parts are stored or deflated, within the budget', async () => {
    const docx = await minimalDocx(['Tide tables for Orrin Bay.'])
    const { documents } = await parseWritten('small.docx', docx, { ...OPTIONS, maxDecompressedBytes: 64 * 1024 })
    expect(documents[0]!.text).toBe('Tide tables for Orrin Bay.')
  })

  it('skips malformed JSONL lines and reports each with its number; strict keeps failing the file', async () => {
    const text = [
      '{"id": "a", "text": "Alpha quay."}',
      '{"id": "b", "text": "Bravo quay.",}',
      '',
      '{"id": "c", "body": "no text field"}',
      '{"id": "a", "text": "a repeated id"}',
      'not json at all',
      '{"id": "d", "text": "Delta quay."}',
    ].join('\n')
    const { documents, notes } = await parseWritten('mixed.jsonl', text)
    expect(documents.map((d) => [d.externalId, d.text])).toEqual([
      ['a', 'Alpha quay.'],
      ['d', 'Delta quay.'],
    ])
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatch(/^4 bad lines skipped, 2 records kept: line 2, column 35: malformed JSON: /)
    expect(notes[0]).toMatch(/; line 4: the record has no "text" field/)
    expect(notes[0]).toMatch(/; line 5: id "a" is already used at line 1/)
    expect(notes[0]).toMatch(/; line 6, column 1: malformed JSON: /)
    await expectFailure(parseWritten('mixed.jsonl', text, { ...OPTIONS, strictJsonl: true }), 'json', /mixed\.jsonl: malformed JSON at line 2, column 35/)
    // Nothing good at all: the file still fails, with its first bad line.
    await expectFailure(parseWritten('all-bad.jsonl', 'nope\n{"text": 1}\n'), 'json', /all-bad\.jsonl: malformed JSON at line 1/)
  })
})
