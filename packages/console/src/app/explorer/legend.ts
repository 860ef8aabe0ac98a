import { el } from './explorer-dom.js'
import { endedCounts, ENDED_NODE_COLOR, type ExplorerGraph } from './explorer-graph.js'
import { labelColor, UNLABELLED_COLOR } from './label-palette.js'
import { communityColor, type ColorBy } from './node-styling.js'

/** What the legend shows and what its check boxes change. */
export interface LegendOptions {
  colorBy: ColorBy
  /** First labels hidden by the filter ('' for unlabelled entities). */
  hiddenLabels: ReadonlySet<string>
  /** A label's box was ticked or unticked. */
  toggleLabel(label: string, shown: boolean): void
}

/** One check box row: a swatch, the text, and `testid` with `data-<key>` on the box. */
export function filterRow(
  testid: string,
  data: Record<string, string>,
  text: string,
  checked: boolean,
  onChange: (checked: boolean) => void,
  swatchColor?: string,
): HTMLElement {
  const box = el('input', { testid: `${testid}-box`, attrs: { type: 'checkbox' } })
  box.checked = checked
  box.addEventListener('change', () => onChange(box.checked))
  const label = el('label', {}, box)
  if (swatchColor !== undefined) {
    const swatch = el('span', { class: 'explorer-swatch' })
    swatch.style.background = swatchColor
    label.append(swatch)
  }
  label.append(text)
  const row = el('li', { testid }, label)
  for (const [key, value] of Object.entries(data)) row.dataset[key] = value
  return row
}

/**
 * Redraws the legend: one row per first label of the graph's entities, with its count and a check box
 * that shows or hides them (the label filter), its swatch when nodes are coloured by label; when they
 * are coloured by community, one swatch per community drawn in its own colour (the largest eleven);
 * then (when any is drawn) the grey of ended facts with the counts of ended events and edges.
 */
export function renderLegend(
  legend: HTMLElement,
  graph: ExplorerGraph,
  options: LegendOptions,
): void {
  const counts = new Map<string, number>()
  const communities = new Map<number, { count: number; name: string; degree: number }>()
  graph.forEachNode((node, attrs) => {
    if (attrs.kind === 'community') return
    const label = attrs.labels[0] ?? ''
    counts.set(label, (counts.get(label) ?? 0) + 1)
    if (attrs.community !== undefined && attrs.community >= 0) {
      const c = communities.get(attrs.community) ?? { count: 0, name: '', degree: -1 }
      c.count++
      const degree = graph.degree(node)
      if (degree > c.degree) [c.name, c.degree] = [attrs.label, degree]
      communities.set(attrs.community, c)
    }
  })
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  legend.replaceChildren(
    ...entries.map(([label, count]) =>
      filterRow(
        'explorer-legend-item',
        { label },
        `${label === '' ? '(no label)' : label} ${count.toLocaleString('en')}`,
        !options.hiddenLabels.has(label),
        (shown) => options.toggleLabel(label, shown),
        options.colorBy === 'label'
          ? label === ''
            ? UNLABELLED_COLOR
            : labelColor(label)
          : undefined,
      ),
    ),
  )
  if (options.colorBy === 'community') {
    const top = [...communities].sort((a, b) => a[0] - b[0]).slice(0, 11)
    for (const [index, c] of top) {
      const swatch = el('span', { class: 'explorer-swatch' })
      swatch.style.background = communityColor(index)
      legend.append(
        el(
          'li',
          { testid: 'explorer-legend-community', attrs: { 'data-community': String(index) } },
          swatch,
          `${c.name} +${(c.count - 1).toLocaleString('en')}`,
        ),
      )
    }
  }
  const ended = endedCounts(graph)
  if (ended.nodes + ended.edges > 0) {
    const swatch = el('span', { class: 'explorer-swatch' })
    swatch.style.background = ENDED_NODE_COLOR
    legend.append(
      el(
        'li',
        {
          testid: 'explorer-legend-ended',
          attrs: { 'data-nodes': String(ended.nodes), 'data-edges': String(ended.edges) },
        },
        swatch,
        `ended ${ended.nodes.toLocaleString('en')} events, ${ended.edges.toLocaleString('en')} edges`,
      ),
    )
  }
}

/** The predicate filter: one check box per predicate drawn, with its edge count. */
export function renderPredicateFilter(
  list: HTMLElement,
  graph: ExplorerGraph,
  hidden: ReadonlySet<string>,
  toggle: (predicate: string, shown: boolean) => void,
): void {
  const counts = new Map<string, number>()
  graph.forEachEdge((_e, a) => {
    if (a.kind === 'community') return
    counts.set(a.predicate, (counts.get(a.predicate) ?? 0) + 1)
  })
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  list.replaceChildren(
    ...entries.map(([predicate, count]) =>
      filterRow(
        'explorer-filter-predicate',
        { predicate },
        `${predicate} ${count.toLocaleString('en')}`,
        !hidden.has(predicate),
        (shown) => toggle(predicate, shown),
      ),
    ),
  )
}
