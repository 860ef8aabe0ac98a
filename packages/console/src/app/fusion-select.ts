import { field, h } from './dom.js'
import { BUILTIN_FUSIONS, type FusionChoice } from './search-choices.js'

const option = (value: string, text = value) => h('option', { attrs: { value }, text })

/**
 * The Fusion select and the `cc` alpha shown beside it when `cc` is chosen. It starts with
 * "server default" (`''`, the selection of a fresh form) and the built-ins; `fill` sets the fusions
 * the server listed, third-party `plugin:<name>` ones included, keeping what the user chose when it
 * is still listed. The select carries `data-source` (`builtin`, then `server`).
 */
export function fusionSelect(): {
  /** The Fusion field, then the alpha field. */
  elements: HTMLElement[]
  /** `''` for the server's default, else a listed name. */
  value(): string
  /** The alpha typed, or null when the box is empty. */
  alpha(): number | null
  fill(fusions: readonly FusionChoice[]): void
} {
  const select = h('select', { testid: 'search-fusion', attrs: { 'data-source': 'builtin' } })
  const alpha = h('input', {
    testid: 'search-fusion-alpha',
    attrs: { type: 'number', min: '0', max: '1', step: '0.05', value: '0.5' },
  })
  const alphaField = field('cc alpha', alpha)
  const showAlpha = () => (alphaField.hidden = select.value !== 'cc')
  select.addEventListener('change', showAlpha)

  const fill = (fusions: readonly FusionChoice[]) => {
    const chosen = select.value
    select.replaceChildren(option('', 'server default'), ...fusions.map((f) => option(f.name)))
    // Replacing the options selects the first; put back a choice made meanwhile when it is listed.
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen
    showAlpha()
  }
  fill(BUILTIN_FUSIONS)

  return {
    elements: [field('Fusion', select), alphaField],
    value: () => select.value,
    alpha: () => (alpha.value === '' ? null : Number(alpha.value)),
    fill: (fusions) => {
      fill(fusions)
      select.setAttribute('data-source', 'server')
    },
  }
}
