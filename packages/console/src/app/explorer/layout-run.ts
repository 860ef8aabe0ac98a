import { placeCommunities } from './community-layer.js'
import type { ExplorerGraph } from './explorer-graph.js'
import { LAYOUT_WORKER_FILE, startForceLayout, type ForceLayoutRun } from './force-layout.js'
import type { SigmaView } from './sigma-view.js'

/**
 * Least time between two intermediate layout frames drawn: each one makes sigma process the whole
 * graph again, which under software rendering costs about 0.3 s at 2,000 nodes and seconds at
 * 10,000, so large graphs show only the stable frame.
 */
export const frameInterval = (order: number) =>
  order <= 1000 ? 200 : order <= 5000 ? 1000 : Infinity

/**
 * ForceAtlas2 from the positions drawn (force-layout.ts), its frames drawn as they come (community
 * nodes follow their members, labels are placed again); marks `status` `data-layout` `running`, then
 * `stable` with `data-stable-ms` (from the start to the stable frame on screen), `data-iterations`,
 * `data-converged` and `data-worker-ms`. A run whose load is no longer `isCurrent` marks nothing.
 * Returns the run (to stop it), or null when there is nothing to lay out.
 */
export function startLayoutRun(
  view: SigmaView | null,
  graph: ExplorerGraph,
  status: HTMLElement,
  { isCurrent, onError }: { isCurrent: () => boolean; onError: (error: unknown) => void },
): ForceLayoutRun | null {
  if (view === null || graph.order < 2) {
    status.dataset.layout = 'stable'
    status.dataset.stableMs = '0'
    return null
  }
  const started = performance.now()
  status.dataset.layout = 'running'
  const run = startForceLayout(
    graph,
    new URL(LAYOUT_WORKER_FILE, document.baseURI),
    () => {
      placeCommunities(graph)
      view.placeLabels()
    },
    frameInterval(graph.order),
  )
  void run.done.then(
    async (result) => {
      if (result.stopped || !isCurrent()) return
      await view.nextRender()
      if (!isCurrent()) return
      status.dataset.layout = 'stable'
      status.dataset.stableMs = (performance.now() - started).toFixed(1)
      status.dataset.iterations = String(result.iterations)
      status.dataset.workerMs = result.workerMs.toFixed(1)
      status.dataset.converged = String(result.converged)
    },
    (error: unknown) => {
      if (!isCurrent()) return
      status.dataset.layout = 'error'
      onError(error)
    },
  )
  return run
}
