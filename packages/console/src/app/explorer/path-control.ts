import type { PathForm } from './explorer-controls.js'
import type { ExplorerGraph } from './explorer-graph.js'
import { findDrawnNode, shortestPath } from './path-finder.js'
import type { SigmaView } from './sigma-view.js'

/**
 * Answers the path form: the shortest path between the entities named `fromText` (empty: the
 * selected node) and `toText` among those drawn, shown on the canvas and in `form.result` (its
 * `data-state` `done` with `data-hops` and `data-path`, the uuids in order, or `none` with why).
 * Both texts null clears the path.
 */
export function showPath(
  form: PathForm,
  graph: ExplorerGraph | null,
  selected: string | null,
  view: SigmaView | null,
  fromText: string | null,
  toText: string | null,
): void {
  const result = form.result
  for (const key of ['state', 'hops', 'path']) delete result.dataset[key]
  result.textContent = ''
  view?.setPath(null)
  if (fromText === null || toText === null) return
  const fail = (text: string) => {
    result.dataset.state = 'none'
    result.textContent = text
  }
  if (graph === null) return fail('Open an entity or the whole brain first.')
  const from = fromText.trim() === '' ? selected : findDrawnNode(graph, fromText)
  const to = findDrawnNode(graph, toText)
  if (from === null || to === null)
    return fail(
      `No single drawn entity named “${from === null ? fromText : toText}” (type more of the name).`,
    )
  const found = shortestPath(graph, from, to)
  if (found === null)
    return fail('No path joins them in what is drawn (expand nodes to load more).')
  result.dataset.state = 'done'
  result.dataset.hops = String(found.edges.length)
  result.dataset.path = found.nodes.join(' ')
  const names = found.nodes.map((n) => graph.getNodeAttribute(n, 'label'))
  const hops = found.edges.length
  result.textContent = `${hops} hop${hops === 1 ? '' : 's'}: ${names.join(' → ')}`
  view?.setPath(found)
}
