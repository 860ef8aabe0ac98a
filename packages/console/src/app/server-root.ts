/**
 * The API's root for a page served at `<root>console/` (the server may run under a BASE_PATH, so the root
 * comes from the page's own path): `http://host/base/console/` gives `http://host/base/`.
 */
export function serverRoot(pageUrl: string): string {
  const url = new URL(pageUrl)
  const at = url.pathname.lastIndexOf('/console')
  const path = at === -1 ? url.pathname.replace(/[^/]*$/, '') : url.pathname.slice(0, at + 1)
  return `${url.origin}${path}`
}
