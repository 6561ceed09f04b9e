import { lstatSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { ApiError } from '../../preload/contract'

/**
 * Where jobs may write files a caller names. A job runs with the app's rights, so a path from the API
 * is confined: to the data folder, or to a folder the user picked with the native dialog in this
 * process (Electron). Folders are never created for such a path, and a symlink is never written
 * through.
 */

const refuse = (message: string, issue: string): never => {
  throw new ApiError('VALIDATION', message, [issue])
}

const canonical = (p: string): string => (process.platform === 'win32' ? p.toLowerCase() : p)

/** Whether `path` is `root` or inside it (both already resolved). */
export function isInside(path: string, root: string): boolean {
  const a = canonical(path)
  const b = canonical(root)
  return a === b || a.startsWith(b.endsWith(sep) ? b : b + sep)
}

/**
 * Checks the file a job is about to write: its folder exists, and neither the file nor the
 * `<file>.partial` it is written through is a symlink or a folder. Throws VALIDATION.
 */
export function checkOutputFile(file: string): void {
  for (const candidate of [file, `${file}.partial`]) {
    let stat
    try {
      stat = lstatSync(candidate)
    } catch {
      continue
    }
    if (stat.isSymbolicLink()) refuse(`Refused to write ${candidate}: it is a symbolic link`, 'path: a symbolic link')
    if (!stat.isFile()) refuse(`Refused to write ${candidate}: it exists and is not a file`, 'path: not a file')
  }
}

/**
 * The resolved path of `file` when it may be written: absolute, its folder existing (symlinks
 * followed) inside one of `roots`, the file itself no symlink. Throws a VALIDATION ApiError that says
 * what was refused otherwise.
 */
export function confineOutputPath(file: string, roots: readonly string[]): string {
  if (!isAbsolute(file)) refuse(`Refused: ${file} is not an absolute path`, 'path: give an absolute path')
  const folder = dirname(resolve(file))
  let realFolder: string
  try {
    realFolder = realpathSync(folder)
  } catch {
    return refuse(`Refused: the folder ${folder} does not exist (an export never creates folders): choose an existing folder`, 'path: its folder does not exist')
  }
  const realRoots = roots.flatMap((root) => {
    try {
      return [realpathSync(root)]
    } catch {
      return []
    }
  })
  if (!realRoots.some((root) => isInside(realFolder, root))) {
    refuse(
      `Refused: ${file} is outside the data folder${realRoots.length > 1 ? ' and the folders picked in this session' : ''}. Leave the path out to write into the workspace's exports folder, or pick a folder with the native dialog (desktop app).`,
      'path: outside the data folder',
    )
  }
  const target = join(realFolder, basename(file))
  checkOutputFile(target)
  return target
}

/** Folders the user picked with a native dialog in this process. */
export class OutputFolders {
  private readonly folders = new Set<string>()

  allow(folder: string): void {
    try {
      this.folders.add(realpathSync(folder))
    } catch {
      // A folder that does not exist grants nothing.
    }
  }

  list(): string[] {
    return [...this.folders]
  }
}
