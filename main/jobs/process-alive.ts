import { readFileSync } from 'node:fs'

/**
 * What the operating system says about a process id. `process.kill(pid, 0)` alone cannot tell a job's
 * owner from a zombie (killed, not yet reaped: the pid still answers) or from an unrelated process
 * that was given the same pid later (after a reboot, or once pids wrap around). On Linux,
 * /proc/<pid>/stat gives the state (Z: zombie, X: dead) and the start time in clock ticks since boot,
 * which together with the boot id identify one process exactly.
 */

/**
 * Whether a pid exists at all (EPERM: it does, owned by someone else). Zombies and reused pids read
 * as alive: use it only where /proc is not available, and never as proof that a job's owner lives.
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export interface ProcStat {
  /** R, S, D, T, t, Z (zombie), X (dead), I, ... */
  state: string
  /** Field 22 of /proc/<pid>/stat: start time in clock ticks after boot, as the kernel wrote it. */
  startTicks: string
}

/** Parses one /proc/<pid>/stat line. The command name (field 2) is in parentheses and may hold spaces or parentheses itself. */
export function parseProcStat(line: string): ProcStat | null {
  const close = line.lastIndexOf(')')
  if (close < 0) return null
  const fields = line.slice(close + 1).trim().split(/\s+/)
  // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
  const state = fields[0]
  const startTicks = fields[19]
  if (!state || !startTicks || !/^\d+$/.test(startTicks)) return null
  return { state, startTicks }
}

/** Linux only: the process's state and start time, or null when there is no such process. */
export function readProcStat(pid: number, procRoot = '/proc'): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`${procRoot}/${pid}/stat`, 'utf8'))
  } catch {
    return null
  }
}

/** Whether this platform has /proc/<pid>/stat (Linux). */
export const hasProcStat = (): boolean => process.platform === 'linux' && readProcStat(process.pid) !== null

let cachedBootId: string | null | undefined
/** Linux: the kernel's id of this boot; a pid recorded under another boot id is not the same process. */
export function bootId(): string | null {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null
    } catch {
      cachedBootId = null
    }
  }
  return cachedBootId
}

/** Whether a /proc state means the process has exited (zombie or dead) even though its pid still exists. */
export const isExitedState = (state: string): boolean => state === 'Z' || state === 'X' || state === 'x'
