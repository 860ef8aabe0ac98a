import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BenchDoc, BenchQuery, RetrievalDataset, RetrievalGroup } from './dataset-types.js'
import { parseEvidenceIds } from './locomo-evidence.js'

interface LocomoTurn {
  speaker: string
  dia_id: string
  text: string
}
interface LocomoQa {
  question: string
  evidence?: unknown[]
  category: number
}
interface LocomoSample {
  sample_id: string
  conversation: Record<string, unknown>
  qa: LocomoQa[]
}

/**
 * LoCoMo's question categories as the release (locomo10.json) numbers them (Maharana et al., ACL 2024,
 * Section 4; the mapping mem0's and Zep's LoCoMo evaluations use). Category 5 is excluded by default.
 */
export const LOCOMO_CATEGORIES: Readonly<Record<string, string>> = {
  '1': 'multi-hop',
  '2': 'temporal',
  '3': 'open-domain',
  '4': 'single-hop',
  '5': 'adversarial',
}

/**
 * LoCoMo loader (Maharana et al., ACL 2024; data/locomo10.json). One passage per turn, text
 * `speaker: text`, metadata {dia_id, session, session_date}. One group per conversation: questions are asked of
 * their own conversation only. Gold = the question's evidence turns (turn-level evidence recall).
 * Category 5 (adversarial, unanswerable) is excluded by default, as in the LoCoMo paper's retrieval tables.
 */
export function loadLocomo(dir: string, name: string, excludeCategories = [5]): RetrievalDataset {
  const samples = JSON.parse(readFileSync(join(dir, 'locomo-dev.json'), 'utf8')) as LocomoSample[]
  const notes: string[] = []
  let unknownEvidence = 0
  let noGold = 0
  const groups: RetrievalGroup[] = samples.map((sample) => {
    const docs = conversationTurns(sample)
    const known = new Set(docs.map((d) => d.id))
    const queries: BenchQuery[] = []
    const qrels = new Map<string, Map<string, number>>()
    sample.qa.forEach((qa, i) => {
      if (excludeCategories.includes(qa.category)) return
      const gold = parseEvidenceIds(qa.evidence ?? [])
      const present = gold.filter((id) => known.has(`${sample.sample_id}/${id}`))
      unknownEvidence += gold.length - present.length
      if (present.length === 0) return void noGold++
      const qid = `${sample.sample_id}/q${i}`
      queries.push({ id: qid, text: qa.question, metadata: { category: qa.category } })
      qrels.set(qid, new Map(present.map((id) => [`${sample.sample_id}/${id}`, 1])))
    })
    return { name: sample.sample_id, docs, queries, qrels }
  })
  notes.push(`categories ${excludeCategories.join(',')} excluded`)
  notes.push(`${noGold} questions dropped: no evidence turn found in the conversation`)
  notes.push(`${unknownEvidence} evidence ids point at no turn and were ignored`)
  return { name, groups, notes }
}

function conversationTurns(sample: LocomoSample): BenchDoc[] {
  const conv = sample.conversation
  const sessions = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
  const docs: BenchDoc[] = []
  for (const s of sessions) {
    const date = String(conv[`session_${s}_date_time`] ?? '')
    for (const turn of conv[`session_${s}`] as LocomoTurn[]) {
      const [diaId] = parseEvidenceIds([turn.dia_id])
      docs.push({
        id: `${sample.sample_id}/${diaId ?? turn.dia_id}`,
        text: `${turn.speaker}: ${turn.text}`,
        metadata: { dia_id: diaId ?? turn.dia_id, session: s, session_date: date },
      })
    }
  }
  return docs
}
