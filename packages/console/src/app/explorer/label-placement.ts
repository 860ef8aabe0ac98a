/** A node whose label may be drawn, in viewport pixels. */
export interface LabelCandidate {
  key: string
  /** The node's centre and rendered radius (px). */
  x: number
  y: number
  radius: number
  /** The label's width (px) at the label font. */
  width: number
  /** Higher first: selected, hovered, path, neighbours, then by degree. */
  priority: number
  /** Always drawn (the selected and hovered node), still reserving its room. */
  forced: boolean
}

/** A label's box on screen, as the placement kept it. */
export interface LabelBox {
  key: string
  x1: number
  y1: number
  x2: number
  y2: number
}

/** Where the label goes: right of the node (sigma's default `labelPosition`), vertically centred. */
export function labelBox(c: LabelCandidate, fontPx: number): LabelBox {
  const x1 = c.x + c.radius + 3
  return { key: c.key, x1, y1: c.y - fontPx / 2 - 1, x2: x1 + c.width, y2: c.y + fontPx / 2 + 1 }
}

const overlaps = (a: LabelBox, b: LabelBox, gap: number) =>
  a.x1 < b.x2 + gap && b.x1 < a.x2 + gap && a.y1 < b.y2 + gap && b.y1 < a.y2 + gap

/**
 * The labels to draw: a greedy collision pass in priority order (the label-placement heuristic of
 * Christensen, Marks & Shieber, ACM TOG 14(3), 1995, in its simplest form, one candidate position a
 * label). A label is kept when its box lies inside the viewport and overlaps no box kept before it
 * nor a `reserved` area; a forced one is always kept. Nodes drawn smaller than `minRadius` px get no label unless forced, so
 * fewer, larger labels show when zoomed out and more as the user zooms in. Boxes are bucketed in a
 * grid of `cell` px, so a pass is O(n) for labels of ordinary length.
 */
export function placeLabels(
  candidates: readonly LabelCandidate[],
  viewport: { width: number; height: number },
  { fontPx = 12, minRadius = 3, gap = 2, cell = 64 } = {},
  /** Areas no label may cover (panels drawn over the canvas), in viewport px. */
  reserved: readonly Omit<LabelBox, 'key'>[] = [],
): LabelBox[] {
  const sorted = [...candidates].sort(
    (a, b) => b.priority - a.priority || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  )
  const grid = new Map<number, LabelBox[]>()
  const columns = Math.ceil(viewport.width / cell) + 2
  const cellsOf = (box: LabelBox) => {
    const out: number[] = []
    const c1 = Math.max(-1, Math.floor(box.x1 / cell))
    const c2 = Math.min(columns - 2, Math.floor(box.x2 / cell))
    const r1 = Math.floor(box.y1 / cell)
    const r2 = Math.floor(box.y2 / cell)
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) out.push(r * columns + c)
    return out
  }
  const kept: LabelBox[] = []
  for (const area of reserved)
    for (const k of cellsOf({ key: '', ...area })) {
      const list = grid.get(k)
      const box = { key: '', ...area }
      if (list === undefined) grid.set(k, [box])
      else list.push(box)
    }
  for (const c of sorted) {
    if (!c.forced && c.radius < minRadius) continue
    const box = labelBox(c, fontPx)
    // Whole labels only: one cut by the canvas's edge reads as another name.
    const inView =
      box.x1 >= 0 && box.x2 <= viewport.width && box.y1 >= 0 && box.y2 <= viewport.height
    if (!inView && !c.forced) continue
    const cells = cellsOf(box)
    if (!c.forced && cells.some((k) => grid.get(k)?.some((other) => overlaps(box, other, gap))))
      continue
    kept.push(box)
    for (const k of cells) {
      const list = grid.get(k)
      if (list === undefined) grid.set(k, [box])
      else list.push(box)
    }
  }
  return kept
}

/** Whether any two boxes overlap (what the end-to-end test checks on the drawn labels). */
export function anyOverlap(boxes: readonly LabelBox[]): boolean {
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) if (overlaps(boxes[i]!, boxes[j]!, 0)) return true
  return false
}
