/**
 * An icicle flame graph (root on top) as a standalone SVG, from folded stacks (`a;b;c <weight>` lines,
 * the format of Brendan Gregg's stackcollapse scripts and flamegraph.pl, which this imitates: width is
 * inclusive time, siblings sorted by name, a `<title>` tooltip on every frame). No dependency, so a
 * profile's graph can be drawn offline and committed beside it.
 */
interface FlameNode {
  name: string
  weight: number
  children: Map<string, FlameNode>
}

const WIDTH = 1200
const ROW = 16
const MIN_PX = 0.5

/** Fill colour by where the frame's code lives (see `areaOf`). */
function colour(name: string): string {
  if (/\((packages\/core|adapters)\//.test(name)) return '#f2a65a'
  if (/\(packages\/server\//.test(name)) return '#6fa8dc'
  if (/\((fastify|find-my-way|fast-querystring|fastify-type-provider-zod|pino)\//.test(name))
    return '#93c47d'
  if (/\(zod\//.test(name)) return '#c27ba0'
  if (/\(node:/.test(name)) return '#b7b7b7'
  return '#e06666'
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export function flameGraphSvg(folded: string, title: string): string {
  const root: FlameNode = { name: 'all', weight: 0, children: new Map() }
  for (const line of folded.split('\n')) {
    const at = line.lastIndexOf(' ')
    if (at <= 0) continue
    const weight = Number(line.slice(at + 1))
    if (!(weight > 0)) continue
    root.weight += weight
    let node = root
    for (const frame of line.slice(0, at).split(';')) {
      let child = node.children.get(frame)
      if (child === undefined) {
        child = { name: frame, weight: 0, children: new Map() }
        node.children.set(frame, child)
      }
      child.weight += weight
      node = child
    }
  }
  const rects: string[] = []
  let depth = 0
  const scale = root.weight === 0 ? 0 : WIDTH / root.weight
  const draw = (node: FlameNode, x: number, level: number) => {
    const w = node.weight * scale
    if (w < MIN_PX) return
    depth = Math.max(depth, level + 1)
    const y = 24 + level * ROW
    const share = ((node.weight / root.weight) * 100).toFixed(2)
    const chars = Math.floor((w - 4) / 6.5)
    const label =
      chars < 3 ? '' : node.name.length <= chars ? node.name : `${node.name.slice(0, chars - 2)}..`
    rects.push(
      `<g><title>${escape(`${node.name} (${share}%)`)}</title>` +
        `<rect x="${x.toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${ROW - 1}" fill="${colour(node.name)}" rx="1"/>` +
        (label === ''
          ? ''
          : `<text x="${(x + 3).toFixed(2)}" y="${y + 11}">${escape(label)}</text>`) +
        '</g>',
    )
    let cx = x
    for (const child of [...node.children.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      draw(child, cx, level + 1)
      cx += child.weight * scale
    }
  }
  draw(root, 0, 0)
  const height = 24 + depth * ROW + 8
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="monospace" font-size="11">`,
    `<text x="4" y="16" font-size="13">${escape(title)}</text>`,
    ...rects,
    '</svg>',
    '',
  ].join('\n')
}
