import type { SearchPlugins } from '@engram/client'
import { field, h } from './dom.js'

/** What the built-in reranks do (`packages/core/src/builtins/builtin-plugins.ts`), shown beside them. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  auto: 'hops for a composed question',
  'plugin:dense': 'cosine; needs an embedder',
  'plugin:coverage': 'query words covered',
  'plugin:hops': 'coverage + a graph hop',
}

/** The `rerank` values every server takes, whatever it registered. */
const ALWAYS = ['auto', 'none'] as const

/**
 * The rerank stages every server registers, offered (with a text box for any other under "other")
 * until, or unless, `GET /meta/search-plugins` answers: a server older than that endpoint.
 */
const BUILTIN_STAGES = ['plugin:dense', 'plugin:coverage', 'plugin:hops'] as const

const OTHER = 'other'

/** An option's text: the name, what a built-in does, what a plugin needs. */
function optionText(name: string, builtin: boolean, requires: readonly string[]): string {
  const known = DESCRIPTIONS[name]
  if (known !== undefined) return `${name} (${known})`
  if (builtin || requires.length === 0) return name
  return `${name} (plugin; needs ${requires.includes('embed') ? 'an embedder' : 'vectors'})`
}

const option = (value: string, text: string) => h('option', { attrs: { value }, text })

/**
 * A select of the rerank stages. It starts with the built-ins and fills itself from `listed` (the
 * Search view's one `GET /meta/search-plugins`): every stage the server registered, third-party
 * `plugin:<name>` ones included, after `auto` and `none`. Once listed, `data-source="server"` is set
 * on the select; when the list cannot be read it keeps the built-ins and a text box for a plugin's
 * name under "other".
 */
export function rerankPicker(listed: Promise<SearchPlugins>): {
  element: HTMLElement
  value(): string
} {
  const select = h('select', { testid: 'search-rerank', attrs: { 'data-source': 'builtin' } })
  const other = h('input', {
    testid: 'search-rerank-other',
    attrs: { type: 'text', placeholder: 'plugin:<name>', 'aria-label': 'Rerank plugin name' },
  })
  other.hidden = true
  const fill = (
    stages: readonly { name: string; builtin: boolean; requires: readonly string[] }[],
  ) => {
    // Keep what the user chose meanwhile, a name typed under "other" included, when it is listed.
    const chosen = select.value === OTHER ? other.value.trim() : select.value
    select.replaceChildren(
      ...ALWAYS.map((name) => option(name, optionText(name, true, []))),
      ...stages.map((s) => option(s.name, optionText(s.name, s.builtin, s.requires))),
    )
    if (chosen !== '' && [...select.options].some((o) => o.value === chosen)) select.value = chosen
  }
  fill(BUILTIN_STAGES.map((name) => ({ name, builtin: true, requires: [] })))
  select.append(option(OTHER, 'other plugin…'))
  select.addEventListener('change', () => {
    other.hidden = select.value !== OTHER
    if (!other.hidden) other.focus()
  })

  listed.then(
    ({ stages }) => {
      fill(stages.filter((s) => s.slot === 'rerank'))
      other.hidden = true
      select.setAttribute('data-source', 'server')
    },
    // The built-ins and "other" stay: searching still works, naming a plugin by hand.
    () => undefined,
  )

  const element = h('div', { class: 'rerank-picker' }, field('Rerank', select), other)
  return {
    element,
    value: () => (select.value === OTHER ? other.value.trim() : select.value),
  }
}
