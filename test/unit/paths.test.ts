import { describe, expect, it } from 'vitest'
import { defaultDataDir, resolveDataDir } from '../../main/config/paths'

describe('data folder', () => {
  it('prefers the flag, then HARNESS_LAB_DATA_DIR, then the OS app-data folder', () => {
    expect(resolveDataDir('/from/flag', { HARNESS_LAB_DATA_DIR: '/from/env' })).toBe('/from/flag')
    expect(resolveDataDir(undefined, { HARNESS_LAB_DATA_DIR: '/from/env' })).toBe('/from/env')
    expect(resolveDataDir(undefined, {})).toBe(defaultDataDir())
  })

  it('follows each platform convention', () => {
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/x' })).toBe('/x/harness-lab')
    expect(defaultDataDir('win32', { APPDATA: 'C:/Users/u/AppData/Roaming' })).toMatch(/HarnessLab$/)
    expect(defaultDataDir('darwin', {})).toMatch(/Library\/Application Support\/HarnessLab$/)
  })
})
