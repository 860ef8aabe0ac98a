import { el } from './explorer-dom.js'
import { endedCounts, ENDED_NODE_COLOR, type ExplorerGraph } from './explorer-graph.js'
import { labelColor, UNLABELLED_COLOR } from './label-palette.js'

/**
 * Redraws the legend: one swatch per label colouring the graph's nodes, with its node count, then
 * (when any is drawn) the grey of ended facts with the counts of ended events and edges.
 */
export function renderLegend(legend: HTMLElement, graph: ExplorerGraph): void {
  const counts = new Map<string, number>()
  graph.forEachNode((_node, attrs) => {
    const label = attrs.labels[0] ?? ''
    counts.set(label, (counts.get(label) ?? 0) + 1)
  })
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  legend.replaceChildren(
    ...entries.map(([label, count]) => {
      const swatch = el('span', { class: 'explorer-swatch' })
      swatch.style.background = label === '' ? UNLABELLED_COLOR : labelColor(label)
      return el(
        'li',
        { testid: 'explorer-legend-item', attrs: { 'data-label': label } },
        swatch,
        `${label === '' ? '(no label)' : label} ${count.toLocaleString('en')}`,
      )
    }),
  )
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
