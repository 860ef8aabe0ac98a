import type { FastifyInstance, FastifyReply } from 'fastify'
import { EngramError } from '@engram/core'
import { consoleAssets } from '@engram/console'

/**
 * Locks the page to its own origin: scripts, styles and API calls come only from this server (no CDN,
 * no inline script), and no other site may frame it. `img-src data:` lets sigma export snapshots.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/**
 * The web console at `/console` (under BASE_PATH): static files only, bundled on first request by
 * @engram/console. The page talks to the REST API with @engram/client like any other caller, so it
 * needs no token here; the user signs in inside the page.
 */
export function consoleRoutes(app: FastifyInstance): void {
  const send = async (reply: FastifyReply, name: string) => {
    const asset = (await consoleAssets()).get(name)
    if (asset === undefined) throw new EngramError('RESOURCE_NOT_FOUND', 'No such console file.')
    return reply
      .header('content-type', asset.contentType)
      .header('content-security-policy', CONSOLE_CSP)
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      .send(asset.body)
  }
  // `/console` redirects to `/console/` so the page's relative asset URLs resolve under it.
  app.get('/console', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0]!
    if (path.endsWith('/')) return send(reply, 'index.html')
    return reply.redirect(`${path}/`, 308)
  })
  app.get<{ Params: { file: string } }>(
    '/console/:file',
    { schema: { hide: true } },
    (request, reply) =>
      send(reply, request.params.file === '' ? 'index.html' : request.params.file),
  )
}
