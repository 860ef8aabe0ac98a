import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BenchDoc, BenchQuery, RetrievalDataset } from './dataset-types.js'

interface MusiqueParagraph {
  title: string
  paragraph_text: string
  is_supporting: boolean
}
interface MusiqueQuestion {
  id: string
  question: string
  paragraphs: MusiqueParagraph[]
}

/**
 * HippoRAG-format MuSiQue loader (Gutiérrez et al., HippoRAG, NeurIPS 2024; data/musique_train*.json on the
 * legacy branch). Corpus passages are title + text; a question's gold set is its `is_supporting` paragraphs,
 * matched to corpus passages on exact title + text (the corpus contains every supporting paragraph).
 */
export function loadMusique(dir: string, name: string): RetrievalDataset {
  const corpus = JSON.parse(
    readFileSync(join(dir, 'hipporag_musique_train_corpus.json'), 'utf8'),
  ) as { title: string; text: string }[]
  const questions = JSON.parse(
    readFileSync(join(dir, 'hipporag_musique_train.json'), 'utf8'),
  ) as MusiqueQuestion[]
  const byKey = new Map<string, string>()
  const docs: BenchDoc[] = corpus.map((p, i) => {
    const id = `p${i}`
    const key = passageKey(p.title, p.text)
    if (!byKey.has(key)) byKey.set(key, id)
    return { id, title: p.title, text: p.text }
  })
  let unmatched = 0
  const queries: BenchQuery[] = []
  const qrels = new Map<string, Map<string, number>>()
  for (const q of questions) {
    const gold = new Map<string, number>()
    for (const p of q.paragraphs.filter((x) => x.is_supporting)) {
      const id = byKey.get(passageKey(p.title, p.paragraph_text))
      if (id) gold.set(id, 1)
      else unmatched++
    }
    queries.push({ id: q.id, text: q.question, metadata: { hops: Number(q.id[0]) || 0 } })
    qrels.set(q.id, gold)
  }
  const notes = [
    `${docs.length - byKey.size} duplicate corpus passages (same title + text)`,
    `${unmatched} supporting paragraphs not found in the corpus`,
  ]
  return { name, groups: [{ name, docs, queries, qrels }], notes }
}

function passageKey(title: string, text: string): string {
  return `${title.trim()}\u0000${text.trim()}`
}
