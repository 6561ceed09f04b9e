/**
 * Issue 34 part 5: an export format is declared once (its file in main/exports/formats/, registered in
 * main/exports/registry.ts, its name and extension in the contract's table); the path check, the
 * default file names and the renderer's file names are derived from that table, never restated.
 */
import { describe, expect, it } from 'vitest'
import { EXPORT_EXTENSIONS, EXPORT_FILE_EXTENSIONS, ExportFormat, ExportParams, exportStem, QUESTION_EXPORT_FORMATS, RUN_EXPORT_FORMATS } from '../../preload/contract'
import { exportFileName, exportFormatCatalog, exportFormats } from '../../main/exports'

const paramsOf = (format: ExportFormat, path?: string) =>
  ExportParams.safeParse((RUN_EXPORT_FORMATS as readonly string[]).includes(format) ? { source: 'run', runId: 1, format, path } : { source: 'questions', questionSetId: 1, format, path })

describe('export formats, declared once', () => {
  it('the registry declares every format of the contract with the contract’s extension', () => {
    expect(Object.keys(exportFormats).sort()).toEqual([...ExportFormat.options].sort())
    expect([...RUN_EXPORT_FORMATS, ...QUESTION_EXPORT_FORMATS].sort()).toEqual([...ExportFormat.options].sort())
    for (const info of exportFormatCatalog()) expect([info.name, info.extension]).toEqual([info.name, EXPORT_EXTENSIONS[info.name]])
    expect([...EXPORT_FILE_EXTENSIONS].sort()).toEqual([...new Set(Object.values(EXPORT_EXTENSIONS))].sort())
  })

  it('the path check accepts exactly the declared extensions (and a folder name without one)', () => {
    for (const format of ExportFormat.options) {
      const ext = EXPORT_EXTENSIONS[format]
      expect(paramsOf(format, `/data/out.${ext}`).success, `${format} .${ext}`).toBe(true)
      expect(paramsOf(format, '/data/out-folder').success, format).toBe(true)
      expect(paramsOf(format, '/data/out.txt').success, format).toBe(false)
    }
    const refused = paramsOf('run-results-csv', '/data/out.txt')
    expect(refused.success ? '' : refused.error.issues[0]!.message).toContain(EXPORT_FILE_EXTENSIONS.map((e) => `.${e}`).join(', '))
  })

  it('default file names carry the format’s stem and its declared extension', () => {
    expect(exportStem('run-results-csv')).toBe('run-results')
    expect(exportStem('questions-verl-jsonl')).toBe('questions-verl')
    for (const [format, def] of Object.entries(exportFormats)) {
      const name = exportFileName(paramsOf(format as ExportFormat).data!, 'STAMP')
      expect(name, format).toContain(`-${exportStem(format)}-STAMP`)
      expect(name.endsWith(def.folder ? '-STAMP' : `-STAMP.${def.extension}`), name).toBe(true)
    }
  })
})
