import { mdTable } from '../report/format.js'
import { RANKING_OUTCOMES, type RankingOutcome } from './compare-rankings.js'
import { GHOST_MODES, type GhostMode, type NoGhostsResult } from './no-ghosts.js'

const int = (v: number) => v.toLocaleString('en')
const OUTCOME_LABEL: Record<RankingOutcome, string> = {
  identical: 'identical (hits, order, scores)',
  'scores-differ': 'same hits and order, a score differs',
  'order-differs': 'same hits, other order',
  'hits-differ': 'other hits',
}
const MODE_LABEL: Record<GhostMode, string> = {
  default: 'default request (`k` 10)',
  neighbors: '`expand=neighbors`',
}

/** Per mode, how many kept-session questions fell in each outcome, and the largest score gap. */
export function ghostOutcomes(r: NoGhostsResult) {
  return GHOST_MODES.map((mode) => {
    const counts = Object.fromEntries(RANKING_OUTCOMES.map((o) => [o, 0])) as Record<
      RankingOutcome,
      number
    >
    let maxDiff = 0
    const conversations = new Set<string>()
    let questions = 0
    for (const c of r.conversations) {
      questions += c.keptQuestions
      counts.identical += c.keptQuestions
      for (const q of c.differing) {
        if (q.outcome[mode] === 'identical') continue
        counts.identical--
        counts[q.outcome[mode]]++
        maxDiff = Math.max(maxDiff, q.maxScoreDiff[mode])
        conversations.add(c.conversation)
      }
    }
    return { mode, questions, counts, maxDiff, conversations: [...conversations] }
  })
}

/** Hits of a forgotten session, over every question and mode. */
export const ghostHitCount = (r: NoGhostsResult) =>
  r.conversations.reduce((n, c) => n + c.ghostHits.length, 0)

/** Differing questions shown per embedder, the most different first. */
const SHOWN_EXAMPLES = 3

/** One example difference: `entity.name: "Meal" → "meal"`, or `entity only in A: "Meal"`. */
const showDifference = (e: { what: string; a?: unknown; b?: unknown }) =>
  / only in [AB]$/.test(e.what)
    ? `${e.what}: ${JSON.stringify(e.a ?? e.b)}`
    : `${e.what}: ${JSON.stringify(e.a)} → ${JSON.stringify(e.b)}`

const pair = (a: number, b: number) => (a === b ? int(a) : `${int(a)} / ${int(b)}`)

/** The "no ghosts" section for one embedder. */
export function ghostsSection(r: NoGhostsResult): string {
  const out: string[] = [`### \`EMBEDDER=${r.embedder}\``, '']
  out.push(
    `Ingestion ${(r.ingestMs.a / 1000).toFixed(1)} s (A, every session) and ${(r.ingestMs.b / 1000).toFixed(1)} s (B, kept sessions); the forgets of A ${(r.forgetMs / 1000).toFixed(1)} s in all.`,
    '',
    mdTable(
      [
        'conversation',
        'sessions',
        'forgotten',
        'forget tasks completed',
        'kept questions',
        'questions searched in A',
        'passages (A / B)',
        'entities',
        'relationships',
        'observations',
        'sources',
        'same passage texts',
        'hits of a forgotten session',
      ],
      r.conversations.map((c) => [
        c.conversation,
        String(c.sessions),
        String(c.forgotten.length),
        String(c.forgetTasks.completed),
        String(c.keptQuestions),
        String(c.questionsSearched),
        pair(c.a.passages, c.b.passages),
        pair(c.a.entities, c.b.entities),
        pair(c.a.relationships, c.b.relationships),
        pair(c.a.observations, c.b.observations),
        pair(c.a.sources, c.b.sources),
        c.samePassageTexts ? 'yes' : '**no**',
        String(c.ghostHits.length),
      ]),
    ),
    '',
    'One number where A and B hold the same count. Top 10 of A against B, per question of a kept session:',
    '',
    mdTable(
      [
        'search',
        'questions',
        ...RANKING_OUTCOMES.map((o) => OUTCOME_LABEL[o]),
        'largest score gap',
      ],
      ghostOutcomes(r).map((o) => [
        MODE_LABEL[o.mode],
        String(o.questions),
        ...RANKING_OUTCOMES.map((k) => String(o.counts[k])),
        o.maxDiff === 0 ? '0' : o.maxDiff.toExponential(1),
      ]),
    ),
    '',
  )
  const diffs = r.conversations.filter((c) => Object.keys(c.graphDiff.counts).length > 0)
  if (diffs.length > 0) {
    out.push(
      'Where the stored graph of A differs from B’s (records compared field by field by id; write times left out):',
      '',
      mdTable(
        ['conversation', 'differences (records)', 'examples (A → B)'],
        diffs.map((c) => [
          c.conversation,
          Object.entries(c.graphDiff.counts)
            .map(([k, n]) => `${k}: ${n}`)
            .join(', '),
          c.graphDiff.examples.map(showDifference).join('; '),
        ]),
      ),
      '',
    )
  } else out.push('The stored graph of A equals B’s, record by record.', '')
  const examples = r.conversations
    .flatMap((c) => c.examples.map((e) => ({ ...e, conversation: c.conversation })))
    .sort((x, y) => RANKING_OUTCOMES.indexOf(y.outcome) - RANKING_OUTCOMES.indexOf(x.outcome))
  for (const e of examples.slice(0, SHOWN_EXAMPLES)) {
    const rows = e.a.map((hit, i) => {
      const other = e.b[i]
      return [
        String(i + 1),
        hit.key.slice(0, 60),
        hit.score.toFixed(6),
        other === undefined ? '-' : other.key === hit.key ? '(same)' : other.key.slice(0, 60),
        other === undefined ? '-' : other.score.toFixed(6),
      ]
    })
    out.push(
      `Example, ${e.conversation} ${MODE_LABEL[e.mode]} (${OUTCOME_LABEL[e.outcome]}): “${e.text}”`,
      '',
      mdTable(['rank', 'A', 'A score', 'B', 'B score'], rows),
      '',
    )
  }
  return out.join('\n')
}

/**
 * Why a kind of graph difference (a `graphDiff` key, `entity only in A` read as `entity only`)
 * exists, per docs/forgetting.md "What is not as if never ingested".
 */
const DIFF_REASONS: Record<string, string> = {
  'entity.name':
    'a surviving entity keeps the name it was first given, and that first mention was forgotten',
  'entity only':
    'the same thing under another id in each brain: an entity’s id derives from the name it was first given, and entity resolution merged mentions while the forgotten content was there that B, never having it, kept apart or merged otherwise',
  'entity.aliases':
    'an alias a forgotten mention added (or a merge decided while it was there); some kept passage still contains the word, and an alias is dropped only when no remaining passage does',
  'entity.labels': 'a label that only forgotten mentions contributed stays',
  'entity.sourcePassageIds':
    'a kept passage cited by an entity that in B another entity cites: a mention that resolution merged into it in A only',
  'relationship only': 'relationships of those entities, whose ids derive from their ends',
}

/** The kinds of graph difference over every conversation, each with its count, reason and an example. */
export function graphDiffKinds(r: NoGhostsResult) {
  const kinds = new Map<string, { count: number; example: string | null }>()
  for (const c of r.conversations) {
    for (const [what, n] of Object.entries(c.graphDiff.counts)) {
      const kind = what.replace(/ in [AB]$/, '')
      const entry = kinds.get(kind) ?? { count: 0, example: null }
      entry.count += n
      const example = c.graphDiff.examples.find((e) => e.what.replace(/ in [AB]$/, '') === kind)
      entry.example ??=
        example === undefined
          ? null
          : what.includes(' only in ')
            ? `${JSON.stringify(example.a ?? example.b)} (${c.conversation})`
            : `${JSON.stringify(example.a)} in A, ${JSON.stringify(example.b)} in B (${c.conversation})`
      kinds.set(kind, entry)
    }
  }
  return [...kinds.entries()].map(([kind, { count, example }]) => ({
    kind,
    count,
    example,
    reason: DIFF_REASONS[kind] ?? 'not explained here: see results/data/forgetting.json',
  }))
}
