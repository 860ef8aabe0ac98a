import type { ConsoleContext, ConsoleView } from '../console-context.js'
import { brainGraph } from './brain-graph.js'
import { loadBrainGraph } from './brain-loader.js'
import { addCommunityLayer, COLLAPSE_MIN_NODES } from './community-layer.js'
import { entityDetail } from './entity-detail.js'
import { emptyState, pathForm, styleFields } from './explorer-controls.js'
import { el } from './explorer-dom.js'
import { errorBox } from './explorer-error.js'
import {
  endedCounts,
  entityCounts,
  mergeNeighbourhood,
  neighbourhoodGraph,
  type ExplorerGraph,
} from './explorer-graph.js'
import { asOfParam } from './fact-window.js'
import type { ForceLayoutRun } from './force-layout.js'
import { startLayoutRun } from './layout-run.js'
import { renderLegend, renderPredicateFilter } from './legend.js'
import { loadNeighbourhood } from './neighbourhood-loader.js'
import {
  applyColor,
  applySize,
  detectCommunities,
  type ColorBy,
  type SizeBy,
} from './node-styling.js'
import { showPath } from './path-control.js'
import { warmUpRenderer } from './renderer-warmup.js'
import { searchEntities } from './search-entities.js'
import { createSigmaView, type SigmaView } from './sigma-view.js'

/** Hops opened around a searched or focused entity. */
const OPEN_DEPTH = 2
/** Most entities and relationships the whole-brain view reads (20 and 100 pages). */
export const WHOLE_BRAIN_MAX_NODES = 20_000
export const WHOLE_BRAIN_MAX_EDGES = 100_000

/**
 * The entity explorer tab (sigma.js over graphology): search an entity by name (a single match opens
 * at once), open its 2-hop neighbourhood, expand nodes (double-click, or select and press Expand), see
 * an entity's detail, filter by label and predicate, find a shortest path, size nodes by degree or
 * PageRank and colour them by label or community. Every timing of the last load (fetch, graph +
 * layout, first frame) is on `explorer-status` as `data-*-ms` attributes, which the end-to-end test
 * and the console benchmark read.
 *
 * Layout: the radial layout is drawn first (no iterations), then ForceAtlas2 refines it in a worker
 * (force-layout.ts), frames drawn as they come. `explorer-status` carries `data-layout` (`running`,
 * then `stable`) and, once stable, `data-stable-ms` (from the layout's start to the stable frame on
 * screen), `data-iterations` and `data-converged`.
 *
 * Completion signals, for whoever drives the page (the end-to-end tests wait on them, never on a
 * clock): `explorer-status` (graph loads) and `explorer-results` (entity search) carry `data-state`:
 * `loading` while their call runs, then `done` (the result is drawn; the status's `data-action` names
 * the load) or `error` (the error box is shown). A call superseded by a newer one leaves the state to
 * the newer one; a search clears the status's attributes (it cancels any load).
 *
 * Time (docs/time.md): the toolbar's "As of" date (`explorer-as-of`, empty = now) is sent as `as_of`
 * with every load and the detail panel; changing it (or **Now**, which empties it) reloads what is
 * drawn: the last neighbourhood opened, or the whole brain. Facts that had ended at that time (from
 * the relationship list, which is not sliced) are drawn greyed, their window in the edge label and the
 * detail panel; `explorer-node-count` carries `data-ended-nodes` and `data-ended-edges`.
 */
export function createExplorerView(
  ctx: ConsoleContext,
): ConsoleView & { focus(uuid: string): void } {
  const search = el('input', {
    testid: 'explorer-search',
    attrs: { type: 'search', placeholder: 'Entity name', 'aria-label': 'Entity name' },
  })
  const submit = el('button', {
    testid: 'explorer-search-submit',
    text: 'Find',
    attrs: { type: 'submit' },
  })
  const form = el('form', { class: 'explorer-search' }, search, submit)
  const results = el('ul', { class: 'explorer-results', testid: 'explorer-results' })
  const expand = el('button', {
    testid: 'explorer-expand',
    text: 'Expand selected',
    attrs: { type: 'button', disabled: '' },
  })
  const wholeBrain = el('button', {
    testid: 'explorer-load-all',
    text: 'Whole brain',
    attrs: { type: 'button' },
  })
  const count = el('span', {
    class: 'explorer-count',
    testid: 'explorer-node-count',
    text: '0 nodes',
  })
  const status = el('span', {
    class: 'explorer-muted',
    testid: 'explorer-status',
    attrs: { 'aria-live': 'polite' },
  })
  const asOfInput = el('input', {
    testid: 'explorer-as-of',
    attrs: { type: 'date', id: 'explorer-as-of', 'aria-describedby': 'explorer-as-of-hint' },
  })
  const asOfNow = el('button', {
    testid: 'explorer-as-of-now',
    text: 'Now',
    attrs: { type: 'button', 'aria-label': 'As of now (clear the date)' },
  })
  const asOfField = el(
    'span',
    { class: 'explorer-as-of' },
    el('label', { text: 'As of', attrs: { for: 'explorer-as-of' } }),
    asOfInput,
    asOfNow,
    el('span', {
      class: 'explorer-visually-hidden',
      text: 'Empty: now. Facts that had ended by then are greyed.',
      attrs: { id: 'explorer-as-of-hint' },
    }),
  )
  const toolbar = el(
    'div',
    { class: 'explorer-toolbar' },
    expand,
    wholeBrain,
    asOfField,
    ...styleFields(
      (by) => setSizeBy(by),
      (by) => setColorBy(by),
    ),
    count,
    status,
  )
  const path = pathForm(
    (from, to) => findPath(from, to),
    () => clearPath(),
  )
  const canvas = el('div', { class: 'explorer-canvas', testid: 'explorer-canvas' })
  const empty = emptyState()
  empty.show('start')
  const legend = el('ul', { class: 'explorer-legend', testid: 'explorer-legend' })
  const predicates = el('ul', { class: 'explorer-legend', testid: 'explorer-predicates' })
  const filters = el(
    'div',
    { class: 'explorer-filters' },
    el('h4', { text: 'Labels' }),
    legend,
    el('h4', { text: 'Predicates' }),
    predicates,
  )
  const detail = el(
    'aside',
    { class: 'explorer-detail', testid: 'entity-detail' },
    el('p', { class: 'explorer-muted', text: 'Select a node to see its detail.' }),
  )
  const problems = el('div', { class: 'explorer-problems' })
  const stage = el('div', { class: 'explorer-stage' }, canvas, empty.element, filters)
  const element = el(
    'section',
    { class: 'explorer' },
    form,
    results,
    toolbar,
    path.element,
    problems,
    el('div', { class: 'explorer-main' }, stage, detail),
  )
  element.dataset.view = 'explorer'

  let view: SigmaView | null = null
  let graph: ExplorerGraph | null = null
  let sizeBy: SizeBy = 'degree'
  let colorBy: ColorBy = 'label'
  const hiddenLabels = new Set<string>()
  const hiddenPredicates = new Set<string>()
  let layout: ForceLayoutRun | null = null
  const handlers = { select: (u: string) => select(u), expand: (u: string) => void expandNode(u) }
  /** The renderer, built at sign-in (renderer-warmup.ts says why), after the shell is attached. */
  /** The filter panel drawn over the canvas's corner, which labels keep off. */
  const overlays = () => [filters]
  let disposed = false
  const warming = new Promise((resolve) => setTimeout(resolve, 0)).then(() =>
    disposed
      ? undefined
      : warmUpRenderer(canvas, stage, (g) => createSigmaView(canvas, g, handlers, overlays)).then(
          (v) => {
            // Signed out (or brain changed) meanwhile: nothing will draw with it.
            if (disposed) return v.kill()
            view = v
            canvas.dataset.ready = 'true'
          },
          // A renderer that failed to build here is built again by the first draw, which shows its error.
          () => undefined,
        ),
  )
  let selected: string | null = null
  let generation = 0
  let controller: AbortController | null = null
  /** What is drawn, so a new "as of" can load it again. */
  let shown: { kind: 'entity'; uuid: string } | { kind: 'brain' } | null = null
  /** The `as_of` of every call (the toolbar's date), or undefined for now. */
  let asOf: string | undefined

  const restart = () => {
    layout?.stop()
    layout = null
    controller?.abort()
    controller = new AbortController()
    problems.replaceChildren()
    for (const key of Object.keys(status.dataset)) if (key !== 'testid') delete status.dataset[key]
    return { id: ++generation, signal: controller.signal }
  }
  /** A new graph load: its run, with `explorer-status` marked loading until it is drawn or fails. */
  const startLoad = (text: string) => {
    const run = restart()
    status.dataset.state = 'loading'
    status.textContent = text
    return run
  }
  const showError = (error: unknown) => {
    problems.replaceChildren(errorBox(error))
    status.dataset.state = 'error'
  }
  const updateCount = () => {
    const { nodes, edges } = graph === null ? { nodes: 0, edges: 0 } : entityCounts(graph)
    count.textContent = `${nodes.toLocaleString('en')} nodes · ${edges.toLocaleString('en')} edges`
    count.dataset.nodes = String(nodes)
    count.dataset.edges = String(edges)
    const ended = graph === null ? { nodes: 0, edges: 0 } : endedCounts(graph)
    count.dataset.endedNodes = String(ended.nodes)
    count.dataset.endedEdges = String(ended.edges)
    if (asOf === undefined) delete count.dataset.asOf
    else count.dataset.asOf = asOf
    let visibleNodes = 0
    let visibleEdges = 0
    graph?.forEachNode((_n, a) => {
      if (a.kind === undefined && !hiddenLabels.has(a.labels[0] ?? '')) visibleNodes++
    })
    graph?.forEachEdge((_e, a, _s, _t, sa, ta) => {
      if (a.kind !== undefined || hiddenPredicates.has(a.predicate)) return
      if (hiddenLabels.has(sa.labels[0] ?? '') || hiddenLabels.has(ta.labels[0] ?? '')) return
      visibleEdges++
    })
    count.dataset.visibleNodes = String(visibleNodes)
    count.dataset.visibleEdges = String(visibleEdges)
  }
  const renderFilters = () => {
    if (graph === null) return
    renderLegend(legend, graph, {
      colorBy,
      hiddenLabels,
      toggleLabel: (label, shown) => {
        if (shown) hiddenLabels.delete(label)
        else hiddenLabels.add(label)
        applyFilter()
      },
    })
    renderPredicateFilter(predicates, graph, hiddenPredicates, (predicate, shown) => {
      if (shown) hiddenPredicates.delete(predicate)
      else hiddenPredicates.add(predicate)
      applyFilter()
    })
  }
  const applyFilter = () => {
    view?.setFilter({ hiddenLabels, hiddenPredicates })
    updateCount()
  }
  /** Size and colour as picked (communities detected on first need). */
  const styleGraph = (g: ExplorerGraph) => {
    if (colorBy === 'community' && !g.someNode((_n, a) => a.community !== undefined))
      detectCommunities(g)
    applySize(g, sizeBy)
    applyColor(g, colorBy)
  }
  const setSizeBy = (by: SizeBy) => {
    sizeBy = by
    if (graph !== null) applySize(graph, by)
    view?.placeLabels()
  }
  const setColorBy = (by: ColorBy) => {
    colorBy = by
    if (graph === null) return
    styleGraph(graph)
    renderFilters()
  }

  const startLayout = (g: ExplorerGraph, runId: number) => {
    layout = startLayoutRun(view, g, status, {
      isCurrent: () => runId === generation,
      onError: (error) => problems.replaceChildren(errorBox(error)),
    })
  }
  const findPath = (fromText: string, toText: string) =>
    showPath(path, graph, selected, view, fromText, toText)
  const clearPath = () => showPath(path, graph, selected, view, null, null)
  const recordTiming = (
    what: string,
    timings: Record<string, number>,
    requests: number,
    note = '',
  ) => {
    status.dataset.requests = String(requests)
    status.dataset.action = what
    for (const [key, ms] of Object.entries(timings)) status.dataset[`${key}Ms`] = ms.toFixed(1)
    status.textContent = `${what}: ${Math.round(timings.total ?? 0)} ms, ${requests} request${requests === 1 ? '' : 's'}${note}`
    status.dataset.state = 'done'
  }

  /** Draws `next` (new graph) and resolves after the frame that shows it. */
  const draw = async (next: ExplorerGraph) => {
    await warming
    graph = next
    clearPath()
    if (view === null) {
      // Only when the warm-up failed: build the renderer now.
      view = createSigmaView(canvas, next, handlers, overlays)
      view.setFilter({ hiddenLabels, hiddenPredicates })
    } else {
      view.setFilter({ hiddenLabels, hiddenPredicates }, false)
      view.setGraph(next)
    }
    const rendered = view.nextRender()
    renderFilters()
    updateCount()
    empty.show(
      entityCounts(next).nodes === 0 ? (shown?.kind === 'brain' ? 'empty-brain' : 'start') : null,
    )
    await rendered
  }

  const select = (uuid: string) => {
    selected = uuid
    view?.setSelected(graph?.hasNode(uuid) === true ? uuid : null)
    expand.disabled = !(graph?.hasNode(uuid) ?? false)
    detail.replaceChildren(entityDetail(ctx.client, uuid, navigate, asOf))
    if (path.from.value.trim() === '' && graph?.hasNode(uuid) === true)
      path.from.placeholder = `from ${graph.getNodeAttribute(uuid, 'label')} (selected)`
  }

  /** From the detail panel: select the entity when drawn, else open its neighbourhood. */
  const navigate = (uuid: string) => {
    if (graph?.hasNode(uuid) === true) select(uuid)
    else void open(uuid)
  }

  const open = async (uuid: string) => {
    shown = { kind: 'entity', uuid }
    const run = startLoad(`Loading the ${OPEN_DEPTH}-hop neighbourhood…`)
    try {
      const t0 = performance.now()
      const n = await loadNeighbourhood(ctx.client, uuid, OPEN_DEPTH, run.signal, asOf)
      const t1 = performance.now()
      if (run.id !== generation) return
      const next = neighbourhoodGraph(n, OPEN_DEPTH)
      styleGraph(next)
      const t2 = performance.now()
      await draw(next)
      const t3 = performance.now()
      if (run.id !== generation) return
      // In the page's performance timeline too (DevTools, the end-to-end test's profile).
      performance.measure('explorer 2-hop fetch', { start: t0, end: t1 })
      performance.measure('explorer 2-hop graph', { start: t1, end: t2 })
      performance.measure('explorer 2-hop render', { start: t2, end: t3 })
      const cut =
        n.truncated.length > 0
          ? ` (${n.truncated.length} nodes have more relationships than shown)`
          : ''
      recordTiming(
        '2-hop',
        { total: t3 - t0, fetch: t1 - t0, layout: t2 - t1, render: t3 - t2 },
        n.requests,
        cut,
      )
      select(uuid)
      startLayout(next, run.id)
    } catch (error) {
      if (run.id === generation) showError(error)
    }
  }

  const expandNode = async (uuid: string) => {
    if (graph === null || !graph.hasNode(uuid)) return
    const run = startLoad('Expanding…')
    try {
      const t0 = performance.now()
      const n = await loadNeighbourhood(ctx.client, uuid, 1, run.signal, asOf)
      const t1 = performance.now()
      if (run.id !== generation || graph === null) return
      // Merged into a copy, drawn with setGraph (see SigmaView.setGraph).
      const merged = graph.copy()
      const added = mergeNeighbourhood(merged, n)
      styleGraph(merged)
      graph = merged
      view!.setGraph(merged, true)
      const rendered = view!.nextRender()
      renderFilters()
      updateCount()
      await rendered
      const t2 = performance.now()
      recordTiming(
        'expand',
        { total: t2 - t0, fetch: t1 - t0, render: t2 - t1 },
        n.requests,
        `, ${added.length} new node${added.length === 1 ? '' : 's'}`,
      )
      if (added.length > 0) startLayout(graph, run.id)
      else status.dataset.layout = 'stable'
    } catch (error) {
      if (run.id === generation) showError(error)
    }
  }

  const loadAll = async () => {
    shown = { kind: 'brain' }
    const run = startLoad('Loading the whole brain…')
    try {
      const t0 = performance.now()
      const data = await loadBrainGraph(
        ctx.client,
        WHOLE_BRAIN_MAX_NODES,
        WHOLE_BRAIN_MAX_EDGES,
        run.signal,
        asOf,
      )
      const t1 = performance.now()
      if (run.id !== generation) return
      const next = brainGraph(data)
      const order = next.order
      // Large brains open as their communities (community-layer.ts) until the user zooms in.
      if (order >= COLLAPSE_MIN_NODES || colorBy === 'community') detectCommunities(next)
      styleGraph(next)
      const communities = order >= COLLAPSE_MIN_NODES ? addCommunityLayer(next) : 0
      const t2 = performance.now()
      await draw(next)
      const t3 = performance.now()
      if (run.id !== generation) return
      if (communities > 0) status.dataset.communities = String(communities)
      const cut =
        data.totalEntities > data.nodes.length || data.totalRelationships > WHOLE_BRAIN_MAX_EDGES
          ? ` (read the first ${Math.min(data.totalEntities, WHOLE_BRAIN_MAX_NODES)} of ${data.totalEntities} entities and ${Math.min(data.totalRelationships, WHOLE_BRAIN_MAX_EDGES)} of ${data.totalRelationships} relationships)`
          : ''
      recordTiming(
        'whole brain',
        { total: t3 - t0, fetch: t1 - t0, layout: t2 - t1, render: t3 - t2 },
        data.requests,
        cut,
      )
      startLayout(next, run.id)
    } catch (error) {
      if (run.id === generation) showError(error)
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const text = search.value.trim()
    const run = restart()
    results.dataset.state = 'loading'
    results.replaceChildren(el('li', { class: 'explorer-muted', text: 'Searching…' }))
    searchEntities(ctx.client, text, run.signal).then(
      (entities) => {
        if (run.id !== generation) return
        results.dataset.state = 'done'
        // A single match opens at once (the list still shows it, to open it again).
        if (entities.length === 1) void open(entities[0]!.uuid)
        results.replaceChildren(
          ...(entities.length === 0
            ? [
                el('li', {
                  class: 'explorer-muted',
                  testid: 'explorer-no-result',
                  text: `No entity named like “${text}”.`,
                }),
              ]
            : entities.map((e) => {
                const button = el('button', {
                  class: 'explorer-link',
                  testid: 'explorer-result',
                  text: `${e.name}${e.labels.length > 0 ? ` (${e.labels.join(', ')})` : ''}`,
                  attrs: { type: 'button', 'data-uuid': e.uuid },
                })
                button.addEventListener('click', () => void open(e.uuid))
                return el('li', {}, button)
              })),
        )
      },
      (error: unknown) => {
        if (run.id !== generation) return
        results.dataset.state = 'error'
        results.replaceChildren(el('li', {}, errorBox(error)))
      },
    )
  })
  expand.addEventListener('click', () => {
    if (selected !== null) void expandNode(selected)
  })
  wholeBrain.addEventListener('click', () => void loadAll())
  /** A new time: what is drawn is loaded again as of then (an expansion is not replayed). */
  const setAsOf = () => {
    const next = asOfParam(asOfInput.value)
    if (next === asOf) return
    asOf = next
    if (shown?.kind === 'entity') void open(shown.uuid)
    else if (shown?.kind === 'brain') void loadAll()
    else updateCount()
  }
  asOfInput.addEventListener('change', setAsOf)
  asOfNow.addEventListener('click', () => {
    asOfInput.value = ''
    setAsOf()
  })

  return {
    element,
    focus: (uuid) => void open(uuid),
    show() {
      view?.sigma.resize(true)
      view?.sigma.refresh()
    },
    dispose() {
      disposed = true
      layout?.stop()
      controller?.abort()
      generation++
      view?.kill()
      view = null
      graph = null
    },
  }
}
