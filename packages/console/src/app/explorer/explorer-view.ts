import type { ConsoleContext, ConsoleView } from '../console-context.js'
import { brainGraph } from './brain-graph.js'
import { loadBrainGraph } from './brain-loader.js'
import { entityDetail } from './entity-detail.js'
import { el } from './explorer-dom.js'
import { errorBox } from './explorer-error.js'
import {
  endedCounts,
  mergeNeighbourhood,
  neighbourhoodGraph,
  type ExplorerGraph,
} from './explorer-graph.js'
import { asOfParam } from './fact-window.js'
import { renderLegend } from './legend.js'
import { loadNeighbourhood } from './neighbourhood-loader.js'
import { searchEntities } from './search-entities.js'
import { createSigmaView, type SigmaView } from './sigma-view.js'

/** Hops opened around a searched or focused entity. */
const OPEN_DEPTH = 2
/** Most entities and relationships the whole-brain view reads (20 and 100 pages). */
export const WHOLE_BRAIN_MAX_NODES = 20_000
export const WHOLE_BRAIN_MAX_EDGES = 100_000

/**
 * The entity explorer tab (sigma.js over graphology): search an entity by name, open its 2-hop
 * neighbourhood, expand nodes (double-click, or select and press Expand), see an entity's detail.
 * Every timing of the last load (fetch, graph + layout, first frame) is on `explorer-status` as
 * `data-*-ms` attributes, which the end-to-end test and the console benchmark read.
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
    count,
    status,
  )
  const canvas = el('div', { class: 'explorer-canvas', testid: 'explorer-canvas' })
  const legend = el('ul', { class: 'explorer-legend', testid: 'explorer-legend' })
  const detail = el(
    'aside',
    { class: 'explorer-detail', testid: 'entity-detail' },
    el('p', { class: 'explorer-muted', text: 'Select a node to see its detail.' }),
  )
  const problems = el('div', { class: 'explorer-problems' })
  const element = el(
    'section',
    { class: 'explorer' },
    form,
    results,
    toolbar,
    problems,
    el(
      'div',
      { class: 'explorer-main' },
      el('div', { class: 'explorer-stage' }, canvas, legend),
      detail,
    ),
  )
  element.dataset.view = 'explorer'

  let view: SigmaView | null = null
  let graph: ExplorerGraph | null = null
  let selected: string | null = null
  let generation = 0
  let controller: AbortController | null = null
  /** What is drawn, so a new "as of" can load it again. */
  let shown: { kind: 'entity'; uuid: string } | { kind: 'brain' } | null = null
  /** The `as_of` of every call (the toolbar's date), or undefined for now. */
  let asOf: string | undefined

  const restart = () => {
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
    const nodes = graph?.order ?? 0
    const edges = graph?.size ?? 0
    count.textContent = `${nodes.toLocaleString('en')} nodes · ${edges.toLocaleString('en')} edges`
    count.dataset.nodes = String(nodes)
    count.dataset.edges = String(edges)
    const ended = graph === null ? { nodes: 0, edges: 0 } : endedCounts(graph)
    count.dataset.endedNodes = String(ended.nodes)
    count.dataset.endedEdges = String(ended.edges)
    if (asOf === undefined) delete count.dataset.asOf
    else count.dataset.asOf = asOf
  }
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
    graph = next
    if (view === null)
      view = createSigmaView(canvas, next, {
        select: (u) => select(u),
        expand: (u) => void expandNode(u),
      })
    else view.setGraph(next)
    const rendered = view.nextRender()
    renderLegend(legend, next)
    updateCount()
    await rendered
  }

  const select = (uuid: string) => {
    selected = uuid
    view?.setSelected(graph?.hasNode(uuid) === true ? uuid : null)
    expand.disabled = !(graph?.hasNode(uuid) ?? false)
    detail.replaceChildren(entityDetail(ctx.client, uuid, navigate, asOf))
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
      const t2 = performance.now()
      await draw(next)
      const t3 = performance.now()
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
      const added = mergeNeighbourhood(graph, n)
      const rendered = view!.nextRender()
      renderLegend(legend, graph)
      updateCount()
      await rendered
      const t2 = performance.now()
      recordTiming(
        'expand',
        { total: t2 - t0, fetch: t1 - t0, render: t2 - t1 },
        n.requests,
        `, ${added.length} new node${added.length === 1 ? '' : 's'}`,
      )
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
      const t2 = performance.now()
      await draw(next)
      const t3 = performance.now()
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
      controller?.abort()
      generation++
      view?.kill()
      view = null
      graph = null
    },
  }
}
