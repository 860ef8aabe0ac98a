/** The URL without user, password and query: safe to print and to log. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return '(an invalid URL)'
  }
}
