/** The reader's route for a document, with the sentence (by its number in the document) and/or chunk to highlight. */
export function documentLink(workspaceId: string, documentId: number, at: { sentence?: number | null; chunk?: number | null } = {}): { path: string; query: Record<string, string> } {
  const query: Record<string, string> = {}
  if (at.sentence !== undefined && at.sentence !== null) query.sentence = String(at.sentence)
  if (at.chunk !== undefined && at.chunk !== null) query.chunk = String(at.chunk)
  return { path: `/workspaces/${encodeURIComponent(workspaceId)}/documents/${documentId}`, query }
}
