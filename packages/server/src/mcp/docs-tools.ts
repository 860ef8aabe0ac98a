import { z } from 'zod'
import { asObject, defineTool, READ_ONLY, type McpTool } from './mcp-tool.js'
import { SEARCH_IDS, searchOutput } from './tool-outputs.js'

/**
 * `search_docs`: `/demo/search` as a tool, called in-process with the caller's address, so the
 * documentation brain, the limits (query 1..500, k 1..10) and the demo rate limiter (30 a minute per
 * client, shared with `/demo/search`, then 60 s of RATE_LIMITED) are the route's own.
 */
export const searchDocs: McpTool = defineTool({
  name: 'search_docs',
  title: 'Search the Engram documentation',
  description:
    'BM25 search over the Engram documentation, the Markdown files of docs/ (REST API, MCP, errors, architecture, adapters). Returns up to k hits, best first, each with a snippet (<= 240 characters), a score (3 significant digits) and extras.title (the file) and extras.section (the heading); ids only with include_ids. Rate limited to 30 calls a minute per client, shared with GET /demo/search, then RATE_LIMITED for 60 s.',
  input: z.object({
    query: z.string().min(1).max(500).describe('What to look for, in plain words.'),
    k: z.number().int().min(1).max(10).optional().describe('Number of hits, 1..10 (default 10).'),
  }),
  output: searchOutput,
  ids: SEARCH_IDS,
  annotations: READ_ONLY,
  run: async ({ query, k }, ctx) =>
    asObject(await ctx.client().GET('/demo/search', { params: { query: { query, k } } })),
})

export const DOCS_TOOLS: McpTool[] = [searchDocs]
