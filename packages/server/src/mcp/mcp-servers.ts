import type { Engram } from '@engram/core'
import {
  entityContextTool,
  getTaskTool,
  ingestTextTool,
  listBrainsTool,
  recommendTool,
  retrieveContextTool,
  searchTool,
} from './brain-tools.js'
import type { McpServerInfo } from './create-mcp-server.js'
import { DOCS_TOOLS } from './docs-tools.js'
import { correctFactTool } from './fact-tools.js'
import { getEntityTool, traverseGraphTool } from './graph-tools.js'
import type { McpTool } from './mcp-tool.js'
import { forgetSourceTool, listSourcesTool } from './source-tools.js'

/** A server's identity and its tools (CONTRACT.md section 10). */
export interface McpServerSpec {
  info: McpServerInfo
  /** Path of its Streamable HTTP endpoint, at the root (outside BASE_PATH). */
  endpoint: string
  tools: McpTool[]
}

/** The public documentation-search server: no token, the demo's brain and limits. */
export function docsServer(version: string): McpServerSpec {
  return {
    endpoint: '/mcp',
    info: {
      name: 'engram-docs',
      title: 'Engram documentation',
      version,
      instructions:
        'Searches the Engram documentation (REST API, MCP, errors, architecture, storage adapters) with search_docs. Public and read-only; 30 searches a minute per client.',
    },
    tools: DOCS_TOOLS,
  }
}

/** The authenticated product server: REST's tokens and brain selection, one tool per operation. */
export function brainServer(version: string, engram: Engram): McpServerSpec {
  return {
    endpoint: '/mcp/brain',
    info: {
      name: 'engram',
      title: 'Engram memory',
      version,
      instructions:
        'Brain-scoped memory and knowledge graph. Remember with ingest_text (a source_id groups what one document says: sending it again replaces it), then poll get_task until the status is completed, partial_failed or failed. list_sources shows what the brain was told; forget_source removes a source and everything only it supported, for good; correct_fact ends or reopens a fact (when it held), and search and retrieve_context take as_of to ask about the past. Find with search (passages, entities, events) or retrieve_context (an evidence pack for a question); explore with get_entity, entity_context and traverse_graph; recommend for a target. The brain is the X-Brain-ID header of the connection, else the brain_id argument, else the token’s own brain. Results are compact (no empty fields, scores to 3 significant digits); ids (uuids, passage ids) come only with include_ids: true. Failed calls return the REST error envelope: structuredContent.error.code.',
    },
    tools: [
      searchTool,
      retrieveContextTool,
      ingestTextTool,
      getTaskTool,
      getEntityTool(engram),
      entityContextTool,
      traverseGraphTool(engram),
      recommendTool,
      listSourcesTool,
      forgetSourceTool,
      correctFactTool,
      listBrainsTool,
    ],
  }
}
