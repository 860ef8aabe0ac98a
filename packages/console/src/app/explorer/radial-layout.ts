/** Where a node goes. */
export interface Point {
  x: number
  y: number
}

/**
 * Radial tree layout (Eades, "Drawing free trees", Bulletin of the Institute for Combinatorics and its
 * Applications 5, 1992; the annulus-wedge form of Teoh & Ma's RINGS, 2002): the root at the centre,
 * nodes at hop h on the ring of radius h * `ringGap`, and each node's children inside the angular wedge
 * of their parent, wedges sized by subtree size so that a subtree never overlaps another.
 *
 * `parentOf` gives the tree (every node but the root; null for a node not reached from the root,
 * placed on one ring outside the others). On a crowded ring, nodes are staggered over three radii so
 * labels and discs do not sit on one thin circle. O(n) time and memory, deterministic (children are
 * taken in the order `parentOf` lists them): 10,000 nodes take a few milliseconds, no iterations.
 */
export function radialLayout(
  root: string,
  parentOf: ReadonlyMap<string, string | null>,
  ringGap = 100,
): Map<string, Point> {
  const children = new Map<string, string[]>([[root, []]])
  const orphans: string[] = []
  for (const [node, parent] of parentOf) {
    if (!children.has(node)) children.set(node, [])
    if (parent === null || parent === node) {
      orphans.push(node)
      continue
    }
    let list = children.get(parent)
    if (list === undefined) children.set(parent, (list = []))
    list.push(node)
  }

  // Breadth-first order from the root (also gives each node's hop), then subtree sizes bottom-up.
  const order: string[] = [root]
  const hop = new Map<string, number>([[root, 0]])
  for (let i = 0; i < order.length; i++) {
    const node = order[i]!
    for (const child of children.get(node) ?? []) {
      if (hop.has(child)) continue
      hop.set(child, hop.get(node)! + 1)
      order.push(child)
    }
  }
  const size = new Map<string, number>()
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!
    let total = 1
    for (const child of children.get(node) ?? [])
      if (hop.get(child) === hop.get(node)! + 1) total += size.get(child) ?? 0
    size.set(node, total)
  }

  const positions = new Map<string, Point>([[root, { x: 0, y: 0 }]])
  const wedge = new Map<string, [number, number]>([[root, [0, 2 * Math.PI]]])
  const ringIndex = new Map<number, number>()
  const place = (node: string, h: number, angle: number) => {
    const index = ringIndex.get(h) ?? 0
    ringIndex.set(h, index + 1)
    const radius = h * ringGap + (h > 1 ? ((index % 3) - 1) * ringGap * 0.18 : 0)
    positions.set(node, { x: radius * Math.cos(angle), y: radius * Math.sin(angle) })
  }
  for (const node of order) {
    const [start, end] = wedge.get(node)!
    const kids = (children.get(node) ?? []).filter((c) => hop.get(c) === hop.get(node)! + 1)
    const total = kids.reduce((sum, c) => sum + size.get(c)!, 0)
    let at = start
    for (const child of kids) {
      const span = ((end - start) * size.get(child)!) / total
      wedge.set(child, [at, at + span])
      place(child, hop.get(child)!, at + span / 2)
      at += span
    }
  }

  // Nodes not reached from the root (and any cycle in `parentOf`): one ring outside the rest.
  const orphanSet = new Set(orphans)
  const outer = [
    ...orphans,
    ...[...parentOf.keys()].filter((n) => !positions.has(n) && !orphanSet.has(n)),
  ]
  let maxHop = 0
  for (const h of hop.values()) if (h > maxHop) maxHop = h
  outer.forEach((node, i) => place(node, maxHop + 1, (2 * Math.PI * i) / outer.length))
  return positions
}

/**
 * Spots for `count` new nodes around `center`: a circle (or concentric circles of 24, 48, ... nodes)
 * at `gap` from it, starting on the side facing away from the origin so an expansion grows outwards.
 */
export function ringAround(center: Point, count: number, gap = 40): Point[] {
  const out: Point[] = []
  const facing = Math.atan2(center.y, center.x)
  let ring = 1
  let left = count
  while (left > 0) {
    const onRing = Math.min(left, 24 * ring)
    for (let i = 0; i < onRing; i++) {
      const angle = facing + (2 * Math.PI * i) / onRing
      out.push({
        x: center.x + ring * gap * Math.cos(angle),
        y: center.y + ring * gap * Math.sin(angle),
      })
    }
    left -= onRing
    ring++
  }
  return out
}
