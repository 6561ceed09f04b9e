import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The project's shared data folder, beside the checkout (../shared): read in place, never copied.
 * Tests that need it skip with a message when it is absent, so a fresh clone still passes.
 */
export const SHARED_DIR = fileURLToPath(new URL('../../../shared', import.meta.url))

export const sharedPath = (...parts: string[]): string => [SHARED_DIR, ...parts].join('/')

export function sharedAvailable(path: string, what: string): boolean {
  if (existsSync(path)) return true
  console.warn(`Skipping ${what}: ${path} is absent (the project's ../shared data folder)`)
  return false
}
