import type { EngramClient, Entity, Relationship } from '@engram/client'
import { el } from './explorer-dom.js'
import { errorBox } from './explorer-error.js'
import { atOf, factTime, type FactTime } from './fact-window.js'
import { labelColor } from './label-palette.js'

/** Relationships listed per direction (the list endpoint's page size). */
const RELATIONSHIPS_LIMIT = 1000
const TOP_K = 10

/**
 * A part of the panel that loads on its own: `data-state` is `loading`, then `done` once `fill`'s
 * outcome is shown, or `error` once its error box is. The returned promise settles then.
 */
function settle(element: HTMLElement, fill: Promise<unknown>): Promise<void> {
  element.dataset.state = 'loading'
  return fill.then(
    () => {
      element.dataset.state = 'done'
    },
    () => {
      element.dataset.state = 'error'
    },
  )
}

/** A section of the panel that fills itself when its call answers, or shows the call's error. */
function section(
  title: string,
  testid: string,
  fill: () => Promise<Node[]>,
): { element: HTMLElement; settled: Promise<void> } {
  const body = el('div', { class: 'explorer-muted', text: 'Loading…' })
  const element = el(
    'section',
    { class: 'explorer-detail-section', testid },
    el('h4', { text: title }),
    body,
  )
  const shown = fill().then(
    (nodes) =>
      body.replaceWith(
        ...(nodes.length > 0 ? nodes : [el('p', { class: 'explorer-muted', text: 'None.' })]),
      ),
    (error: unknown) => {
      body.replaceWith(errorBox(error, `${testid}-error`))
      throw error
    },
  )
  return { element, settled: settle(element, shown) }
}

/** A button naming an entity that opens it. */
function entityLink(
  entity: { uuid: string; name: string; labels: string[] },
  open: (uuid: string) => void,
  testid: string,
) {
  const button = el('button', {
    class: 'explorer-link',
    testid,
    text: entity.name,
    attrs: { type: 'button', 'data-uuid': entity.uuid },
  })
  button.style.borderLeftColor = labelColor(entity.labels[0])
  button.addEventListener('click', () => open(entity.uuid))
  return button
}

/**
 * The detail panel of one entity: name, labels, description, properties and observations
 * (`GET /retrieve/entity/status`: the entity's own observations and those of the passages that name
 * it), outgoing and incoming relationships (`GET /retrieve/relationships` filtered by the entity's
 * name as source or target, then by uuid), synergies (`GET /retrieve/entity/synergies`) and
 * recommendations (`GET /retrieve/recommend`). Each part loads on its own and shows its own error,
 * with its own `data-state` (`loading`, `done`, `error`); the panel's `data-state` turns `done` when
 * every part has settled, the completion signal the end-to-end tests wait on. `open(uuid)` navigates
 * to another entity.
 *
 * Time (docs/time.md): as of `asOf` (a date; now when absent). An event shows its window
 * (`entity-window`), each relationship its own (`entity-relationship-window`); ended ones are marked
 * `data-ended` and greyed. The relationship list is not sliced by time, so the panel applies it:
 * with `asOf`, relationships that had not started yet are left out (as the server does).
 */
export function entityDetail(
  client: EngramClient,
  uuid: string,
  open: (uuid: string) => void,
  asOf?: string,
): HTMLElement {
  const at = atOf(asOf)
  const panel = el('div', { class: 'explorer-detail-body', attrs: { 'data-uuid': uuid } })
  const status = client.GET('/retrieve/entity/status', {
    params: { query: { target: uuid, ...(asOf === undefined ? {} : { as_of: asOf }) } },
  })
  const header = el('div', { testid: 'entity-detail-header', text: 'Loading…' })
  panel.append(header)
  const headerShown = status.then(
    (s) => {
      if (!s.exists || s.node === undefined) {
        const error = new Error(`No entity ${uuid} in this brain.`)
        header.replaceWith(errorBox(error, 'entity-detail-error'))
        throw error
      }
      header.replaceChildren(...headerNodes(s.node, at))
    },
    (error: unknown) => {
      header.replaceWith(errorBox(error, 'entity-detail-error'))
      throw error
    },
  )
  const sections = [
    section('Observations', 'entity-observations', async () =>
      (await status).observations.map((o) =>
        el('p', { class: 'explorer-observation', testid: 'entity-observation', text: o.text }),
      ),
    ),
    section('Relationships', 'entity-relationships', async () => {
      const s = await status
      if (s.node === undefined) return []
      return relationshipNodes(client, s.node, open, at, asOf !== undefined)
    }),
    section('Synergies', 'entity-synergies', async () => {
      const r = await client.GET('/retrieve/entity/synergies', {
        params: { query: { target: uuid, top_k: TOP_K } },
      })
      return r.synergies.map((s) =>
        el(
          'div',
          { class: 'explorer-row' },
          entityLink(s.node, open, 'entity-synergy'),
          ` ${s.association_score.toFixed(3)}`,
        ),
      )
    }),
    section('Recommendations', 'entity-recommendations', async () => {
      const r = await client.GET('/retrieve/recommend', {
        params: { query: { target: uuid, top_k: TOP_K } },
      })
      return r.recommendations.map((x) =>
        el(
          'div',
          { class: 'explorer-row' },
          entityLink(x.node, open, 'entity-recommendation'),
          ` ${x.channel} ${x.score.toFixed(3)}`,
        ),
      )
    }),
  ]
  panel.append(...sections.map((s) => s.element))
  void Promise.all([settle(header, headerShown), ...sections.map((s) => s.settled)]).then(() => {
    panel.dataset.state = 'done'
  })
  panel.dataset.state = 'loading'
  return panel
}

/** A fact's window in words, greyed when it had ended (`data-ended`). */
function windowNote(time: FactTime, testid: string): HTMLElement {
  return el('span', {
    class: time.state === 'ended' ? 'explorer-window explorer-ended' : 'explorer-window',
    testid,
    text: time.text,
    attrs: { 'data-state': time.state, 'data-ended': String(time.state === 'ended') },
  })
}

function headerNodes(node: Entity, at: number): Node[] {
  const out: Node[] = [el('h3', { testid: 'entity-name', text: node.name })]
  const time = factTime(node, at)
  if (node.labels.some((l) => l.toUpperCase() === 'EVENT') && time.text !== '')
    out.push(el('p', {}, windowNote(time, 'entity-window')))
  const labels = el('div', { class: 'explorer-labels', testid: 'entity-labels' })
  for (const label of node.labels) {
    const chip = el('span', { class: 'explorer-chip', text: label })
    chip.style.background = labelColor(label)
    labels.append(chip)
  }
  out.push(labels)
  if (node.description !== '')
    out.push(el('p', { testid: 'entity-description', text: node.description }))
  const props = Object.entries(node.properties)
  if (props.length > 0) {
    const list = el('dl', { class: 'explorer-properties', testid: 'entity-properties' })
    for (const [key, value] of props) {
      list.append(
        el('dt', { text: key }),
        el('dd', { text: typeof value === 'string' ? value : JSON.stringify(value) }),
      )
    }
    out.push(list)
  }
  out.push(el('p', { class: 'explorer-muted', text: node.uuid }))
  return out
}

/** Outgoing then incoming relationships of `node`, each naming the entity at the other end. */
async function relationshipNodes(
  client: EngramClient,
  node: Entity,
  open: (uuid: string) => void,
  at: number,
  dropFuture: boolean,
): Promise<Node[]> {
  const list = (target: 'source' | 'target') =>
    client.GET('/retrieve/relationships', {
      params: {
        query: { query_text: node.name, query_search_target: target, limit: RELATIONSHIPS_LIMIT },
      },
    })
  const [outgoing, incoming] = await Promise.all([list('source'), list('target')])
  const row = (predicate: Relationship, other: Entity, direction: 'out' | 'in') => {
    const time = factTime(predicate, at)
    const ended = time.state === 'ended'
    return el(
      'div',
      {
        class: ended ? 'explorer-row explorer-ended' : 'explorer-row',
        testid: 'entity-relationship',
        attrs: { 'data-direction': direction, 'data-ended': String(ended) },
      },
      el('span', {
        class: 'explorer-predicate',
        text: direction === 'out' ? `→ ${predicate.name}` : `← ${predicate.name}`,
      }),
      ' ',
      entityLink(other, open, 'entity-relationship-link'),
      ...(time.text === '' ? [] : [' ', windowNote(time, 'entity-relationship-window')]),
    )
  }
  const shown = (r: Relationship) => !(dropFuture && factTime(r, at).state === 'future')
  const out = outgoing.relationships
    .filter((t) => t.subject.uuid === node.uuid && shown(t.predicate))
    .map((t) => row(t.predicate, t.object, 'out'))
  const inc = incoming.relationships
    .filter((t) => t.object.uuid === node.uuid && shown(t.predicate))
    .map((t) => row(t.predicate, t.subject, 'in'))
  const nodes: Node[] = [...out, ...inc]
  if (outgoing.total > RELATIONSHIPS_LIMIT || incoming.total > RELATIONSHIPS_LIMIT) {
    nodes.push(
      el('p', {
        class: 'explorer-muted',
        text: `Only the newest ${RELATIONSHIPS_LIMIT} matches per direction are listed.`,
      }),
    )
  }
  return nodes
}
