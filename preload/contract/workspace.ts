import { z } from 'zod'
import { route } from './define'

export const WorkspaceName = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(120, 'name must be at most 120 characters')
  .refine((s) => !/[\u0000-\u001f]/.test(s), 'name must not contain control characters')

export const Workspace = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  openedAt: z.string().nullable(),
  /** Size of the workspace database file in bytes. */
  sizeBytes: z.number(),
})
export type Workspace = z.infer<typeof Workspace>

const Id = z.object({ id: z.string().min(1).max(64) })

export const workspaceRoutes = {
  'workspace.list': route('List workspaces, most recently opened first', z.object({}).strict(), z.array(Workspace)),
  'workspace.create': route('Create a workspace with its own database', z.object({ name: WorkspaceName }).strict(), Workspace),
  'workspace.get': route('Open a workspace (records when it was opened)', Id.strict(), Workspace),
  'workspace.rename': route('Rename a workspace', Id.extend({ name: WorkspaceName }).strict(), Workspace),
  'workspace.delete': route(
    'Delete a workspace and its database; the caller confirms by repeating the name',
    Id.extend({ confirmName: z.string() }).strict(),
    z.object({ deleted: z.literal(true) }),
  ),
}
