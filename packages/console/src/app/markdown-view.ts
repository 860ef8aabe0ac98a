import { h } from './dom.js'
import { parseInline, parseMarkdown, type Block, type Inline } from './markdown-parse.js'

/**
 * Markdown as DOM nodes (the subset of `markdown-parse.ts`), built with `createElement` and text
 * nodes only: server text is never handed to an HTML parser. Links open in a new tab without a
 * referrer or an opener.
 */
export function markdownBlocks(text: string): HTMLElement {
  return h('div', { class: 'markdown', testid: 'markdown' }, ...parseMarkdown(text).map(blockNode))
}

/** One line of Markdown (a snippet, whose lines the server joined): inline markup only. */
export function markdownInline(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment()
  fragment.append(...parseInline(text).map(inlineNode))
  return fragment
}

function blockNode(block: Block): HTMLElement {
  switch (block.kind) {
    case 'heading': {
      // Headings inside a hit sit under the page's own h1-h3: shown one size, as h4-h6.
      const tag = (['h4', 'h4', 'h5', 'h5', 'h6', 'h6'] as const)[block.level - 1] ?? 'h6'
      return h(tag, {}, ...block.children.map(inlineNode))
    }
    case 'paragraph':
      return h('p', {}, ...block.children.map(inlineNode))
    case 'list':
      return h(
        block.ordered ? 'ol' : 'ul',
        {},
        ...block.items.map((item) => h('li', {}, ...item.map(inlineNode))),
      )
    case 'code':
      return h('pre', {}, h('code', { text: block.text }))
  }
}

function inlineNode(node: Inline): Node {
  switch (node.kind) {
    case 'text':
      return document.createTextNode(node.text)
    case 'code':
      return h('code', { text: node.text })
    case 'strong':
      return h('strong', {}, ...node.children.map(inlineNode))
    case 'em':
      return h('em', {}, ...node.children.map(inlineNode))
    case 'link':
      return h(
        'a',
        { attrs: { href: node.href, target: '_blank', rel: 'noopener noreferrer nofollow' } },
        ...node.children.map(inlineNode),
      )
  }
}
