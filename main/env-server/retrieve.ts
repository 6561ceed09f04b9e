/**
 * `POST /retrieve` in the shape of Search-R1's retrieval server, which verl's search tool and Search-R1's
 * rollouts call: `{queries: string[], topk?, return_scores?}` -> `{result: [[{document: {id, contents},
 * score}]]}` (without scores each item is the document itself). `contents` is `"<title>"\n<chunk text>`,
 * the first line the title as in Search-R1's wiki corpus. Runs over the workspace's retriever (BM25).
 * `topk: null` is the default (3), as Search-R1's server reads it. With the server's `open: ['retrieve']`
 * (loopback only) Search-R1's client and verl's search tool, which send no token, connect as they are.
 */
import { z } from 'zod'
import { envCorpus, type EnvContext } from '../harness'

/**
 * The work budget of one request: passages searched out and read (queries x topk). Each query is cut to
 * its first 32 searchable terms (MAX_QUERY_TERMS), so the passages bound the work, and no request can
 * hold a lane (and the requests queued behind it) for long. Search-R1's batches (512 queries at topk 3)
 * fit; a larger one is refused, naming the budget, before any work.
 */
export const RETRIEVE_MAX_PASSAGES = 2048

export const RetrieveBody = z
  .strictObject({
    queries: z.array(z.string().max(10_000)).min(1).max(512),
    /** Search-R1's server takes null (or no topk) as its configured default: 3 here. */
    topk: z.number().int().min(1).max(100).nullish().transform((k) => k ?? 3),
    return_scores: z.boolean().nullish().transform((r) => r ?? false),
  })
  .superRefine((b, ctx) => {
    const passages = b.queries.length * b.topk
    if (passages > RETRIEVE_MAX_PASSAGES) {
      ctx.addIssue({
        code: 'custom',
        path: ['topk'],
        message: `${b.queries.length} queries x topk ${b.topk} asks for ${passages} passages; one request may ask for at most ${RETRIEVE_MAX_PASSAGES}: send fewer queries per request or a smaller topk`,
      })
    }
  })
export type RetrieveBody = z.infer<typeof RetrieveBody>

export interface RetrievedDocument {
  id: string
  contents: string
}
export type RetrieveAnswer = { result: Array<Array<{ document: RetrievedDocument; score: number }>> } | { result: RetrievedDocument[][] }

export async function retrieveDocuments(ctx: EnvContext, body: RetrieveBody): Promise<RetrieveAnswer> {
  const corpus = envCorpus(ctx)
  const perQuery = []
  for (const query of body.queries) {
    const { hits } = await ctx.retriever.search(query, body.topk, 'bm25')
    perQuery.push(
      hits.map((h) => {
        const text = corpus.chunkSentences(h.chunkId).map((s) => s.text).join(' ')
        return { document: { id: String(h.chunkId), contents: `"${h.title}"\n${text}` }, score: h.score }
      }),
    )
  }
  return body.return_scores ? { result: perQuery } : { result: perQuery.map((hits) => hits.map((h) => h.document)) }
}
