/** One point of the quality-vs-latency plot. */
export interface PlotPoint {
  readonly dataset: string
  readonly system: string
  readonly metric: string
  readonly quality: number
  readonly latencyMs: number
  readonly role: 'engram' | 'peer'
}

const W = 760
const PANEL_H = 260
const M = { left: 70, right: 180, top: 40, bottom: 46 }

const esc = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')

/**
 * Hand-rolled SVG scatter: one panel per dataset, x = query latency p50 on a log10 axis, y = the dataset's
 * headline metric. Engram conditions are filled circles, peers are hollow squares. No plotting library: the
 * output is plain text and diffs cleanly when the numbers change.
 */
export function plotQualityVsLatency(points: readonly PlotPoint[], pendingNote: string): string {
  const datasets = [...new Set(points.map((p) => p.dataset))].sort()
  const height = M.top + Math.max(1, datasets.length) * (PANEL_H + M.bottom) + 30
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="14" font-weight="bold">Quality vs query latency p50 (log scale), per dataset</text>`,
  ]
  datasets.forEach((dataset, i) => {
    const pts = points.filter((p) => p.dataset === dataset)
    const top = M.top + i * (PANEL_H + M.bottom)
    const plotW = W - M.left - M.right
    const lats = pts.map((p) => Math.log10(Math.max(p.latencyMs, 1e-3)))
    const lo = Math.floor(Math.min(...lats))
    const hi = Math.max(lo + 1, Math.ceil(Math.max(...lats)))
    const qs = pts.map((p) => p.quality)
    const qlo = Math.max(0, Math.floor((Math.min(...qs) - 0.05) * 10) / 10)
    const qhi = Math.min(1, Math.ceil((Math.max(...qs) + 0.05) * 10) / 10)
    // Coordinates rounded to 0.1 px so the committed file diffs cleanly.
    const r1 = (v: number) => Math.round(v * 10) / 10
    const x = (ms: number) =>
      r1(M.left + ((Math.log10(Math.max(ms, 1e-3)) - lo) / (hi - lo)) * plotW)
    const y = (q: number) => r1(top + PANEL_H - ((q - qlo) / (qhi - qlo || 1)) * PANEL_H)
    out.push(
      `<rect x="${M.left}" y="${top}" width="${plotW}" height="${PANEL_H}" fill="none" stroke="#999"/>`,
    )
    out.push(
      `<text x="${M.left}" y="${top - 6}" font-weight="bold">${esc(dataset)} (${esc(pts[0]!.metric)})</text>`,
    )
    for (let e = lo; e <= hi; e++) {
      const px = x(10 ** e)
      out.push(`<line x1="${px}" y1="${top}" x2="${px}" y2="${top + PANEL_H}" stroke="#eee"/>`)
      out.push(
        `<text x="${px}" y="${top + PANEL_H + 14}" text-anchor="middle">${10 ** e} ms</text>`,
      )
    }
    for (let q = qlo; q <= qhi + 1e-9; q += 0.1) {
      const py = y(q)
      out.push(`<line x1="${M.left}" y1="${py}" x2="${M.left + plotW}" y2="${py}" stroke="#eee"/>`)
      out.push(`<text x="${M.left - 6}" y="${py + 4}" text-anchor="end">${q.toFixed(1)}</text>`)
    }
    pts.forEach((p, j) => {
      const px = x(p.latencyMs)
      const py = y(p.quality)
      out.push(
        p.role === 'engram'
          ? `<circle cx="${px}" cy="${py}" r="5" fill="#c0392b"/>`
          : `<rect x="${px - 4}" y="${py - 4}" width="8" height="8" fill="none" stroke="#2c3e50" stroke-width="1.5"/>`,
      )
      out.push(
        `<line x1="${px}" y1="${py}" x2="${M.left + plotW + 10}" y2="${top + 14 + j * 16}" stroke="#ccc"/>`,
      )
      out.push(
        `<text x="${M.left + plotW + 14}" y="${top + 18 + j * 16}">${esc(p.system)} ${p.quality.toFixed(3)} @ ${p.latencyMs.toFixed(2)} ms</text>`,
      )
    })
  })
  out.push(`<text x="${M.left}" y="${height - 10}" fill="#555">${esc(pendingNote)}</text>`)
  out.push('</svg>')
  return `${out.join('\n')}\n`
}
