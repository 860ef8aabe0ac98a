/**
 * Does a statement run on one shard of a cluster distributed by `brain_id`? A sharded PostgreSQL
 * (Citus: "Choosing Distribution Column" and "Router Executor" in its documentation) routes a
 * statement to a single shard when every distributed table it touches is restricted by an equality
 * on the distribution column, and tables joined on that column are co-located. This checker is
 * deliberately conservative: it reads SQL as text (no full parser), and whatever it cannot prove
 * pinned to one brain it reports.
 *
 * A brain-scoped table is a table of the schema with a `brain_id` column; the others (`brains`,
 * `settings`, `schema_migrations`) are the catalogue, reference tables copied to every node.
 */

/** Tables created by `migrations` that have a `brain_id` column (the distributed ones). */
export function brainScopedTables(migrations: readonly string[]): Set<string> {
  const tables = new Set<string>()
  for (const migration of migrations) {
    const create = /create table (?:if not exists )?([a-z_][a-z0-9_]*)\s*\(/gi
    for (let m = create.exec(migration); m !== null; m = create.exec(migration)) {
      const open = m.index + m[0].length - 1
      const body = migration.slice(open + 1, matchingParen(migration, open))
      if (/(^|[(,])\s*brain_id\s/i.test(body)) tables.add(m[1]!.toLowerCase())
    }
  }
  return tables
}

/** Statements that route to no table: transaction control, DDL, session and notification commands. */
const EXEMPT =
  /^(begin|commit|rollback|savepoint|release|start|create|alter|drop|listen|unlisten|set|show|reset)\b/

const KEYWORDS = new Set(
  'where join on set select order group limit offset left right inner outer cross full natural using returning values with as union intersect except for having window and or not default do into from lateral'.split(
    ' ',
  ),
)

/** Index of the parenthesis closing the one at `open` (or the text's length). */
function matchingParen(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return i
  }
  return text.length
}

/** Lower case, one space between words, no comments, string literals emptied (`''`). */
export function normalizeSql(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
}

interface Scope {
  parent: Scope | null
  /** The scope's own text: nested subqueries blanked out (same length, so positions hold). */
  text: string
  refs: { table: string; name: string; segment: number; insert: boolean; at: number }[]
  /** Restrictions `name.brain_id = $n` (name null when unqualified), with their segment. */
  pins: { name: string | null; segment: number }[]
  /** Joins `a.brain_id = b.brain_id`. */
  edges: { a: string; b: string; segment: number }[]
}

/**
 * Splits a statement into scopes: the statement and every parenthesised SELECT/WITH in it. The
 * content of a subquery belongs to its scope only, so a restriction inside `NOT EXISTS (...)` does not
 * pin the table of the enclosing query.
 */
function scopes(sql: string): Scope[] {
  const all: Scope[] = []
  const build = (text: string, parent: Scope | null): void => {
    let own = text
    const children: string[] = []
    for (let i = 0; i < text.length; i++) {
      if (text[i] !== '(' || !/^\(\s*(select|with)\b/.test(text.slice(i, i + 12))) continue
      const close = matchingParen(text, i)
      children.push(text.slice(i + 1, close))
      own = own.slice(0, i + 1) + ' '.repeat(close - i - 1) + own.slice(close)
      i = close
    }
    const scope: Scope = { parent, text: own, refs: [], pins: [], edges: [] }
    all.push(scope)
    for (const child of children) build(child, scope)
  }
  build(sql, null)
  return all
}

/** Which top-level UNION/INTERSECT/EXCEPT branch of `text` position `at` is in. */
function segmentOf(text: string, at: number): number {
  let depth = 0
  let segment = 0
  for (let i = 0; i < at; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')') depth--
    else if (depth === 0 && /^ (union|intersect|except)\b/.test(text.slice(i, i + 11))) segment++
  }
  return segment
}

/**
 * A condition at `at` restricts its query only if it follows WHERE, AND or ON and no OR sits beside
 * it in its parenthesised group (`a OR brain_id = $1` restricts nothing).
 */
function restricts(text: string, at: number): boolean {
  if (!/\b(where|and|on) $/.test(text.slice(Math.max(0, at - 6), at))) return false
  let open = -1
  for (let i = at - 1, depth = 0; i >= 0; i--) {
    if (text[i] === ')') depth++
    else if (text[i] === '(' && depth-- === 0) {
      open = i
      break
    }
  }
  // `count(*) FILTER (WHERE brain_id = $1)` picks rows for an aggregate; it restricts no table.
  if (open !== -1 && /\bfilter ?$/.test(text.slice(Math.max(0, open - 7), open))) return false
  const close = open === -1 ? text.length : matchingParen(text, open)
  let group = text.slice(open + 1, close)
  // Drop nested groups: only ORs at this level matter.
  for (let prev = ''; prev !== group;) {
    prev = group
    group = group.replace(/\([^()]*\)/g, '')
  }
  return !/\bor\b/.test(group)
}

const NAME = '[a-z_][a-z0-9_]*'

function collect(scope: Scope, tables: Set<string>): string[] {
  const problems: string[] = []
  const { text } = scope
  const ref = new RegExp(
    `(\\bfrom|\\bjoin|\\binto|\\bupdate|\\busing|,) ?(${NAME})(?: (?:as )?(${NAME}))?`,
    'g',
  )
  const seen = new Set<number>()
  for (let m = ref.exec(text); m !== null; m = ref.exec(text)) {
    const table = m[2]!
    if (!tables.has(table)) {
      // `FROM a, b`: let the comma rule see `b`.
      ref.lastIndex = m.index + m[1]!.length + 1
      continue
    }
    const at = m.index + m[0].indexOf(table, m[1]!.length)
    const alias = m[3] !== undefined && !KEYWORDS.has(m[3]) ? m[3] : undefined
    seen.add(at)
    const insert = m[1] === 'into'
    scope.refs.push({ table, name: alias ?? table, segment: segmentOf(text, at), insert, at })
    if (insert && !insertsParameter(text.slice(at + table.length))) {
      problems.push(`INSERT INTO ${table} does not take brain_id from a parameter`)
    }
  }
  // Any other use of a brain-scoped table name (TRUNCATE, COPY, LOCK...) is reported, not guessed at.
  const word = new RegExp(`\\b(${[...tables].join('|')})\\b(?!\\.)`, 'g')
  for (let m = word.exec(text); m !== null; m = word.exec(text)) {
    if (seen.has(m.index) || /\bas $/.test(text.slice(m.index - 3, m.index))) continue
    problems.push(`unrecognised use of table ${m[1]}`)
  }
  const pin = new RegExp(
    `(?:(${NAME})\\.)?brain_id = \\$\\d+\\b|\\$\\d+ = (?:(${NAME})\\.)?brain_id\\b`,
    'g',
  )
  for (let m = pin.exec(text); m !== null; m = pin.exec(text)) {
    if (restricts(text, m.index))
      scope.pins.push({ name: m[1] ?? m[2] ?? null, segment: segmentOf(text, m.index) })
  }
  const edge = new RegExp(`(${NAME})\\.brain_id = (${NAME})\\.brain_id\\b`, 'g')
  for (let m = edge.exec(text); m !== null; m = edge.exec(text)) {
    if (restricts(text, m.index))
      scope.edges.push({ a: m[1]!, b: m[2]!, segment: segmentOf(text, m.index) })
  }
  return problems
}

/** After `INSERT INTO t`: a column list starting with brain_id, and a first value `$n`. */
function insertsParameter(rest: string): boolean {
  return /^ ?\( ?brain_id ?,[^)]*\) ?(values ?\( ?\$\d+ ?,|select \$\d+ ?,)/.test(rest)
}

/** Names defined by the refs of `scope` and its ancestors up to (excluding) `stop`. */
function shadows(scope: Scope, stop: Scope, name: string): boolean {
  for (let s: Scope | null = scope; s !== null && s !== stop; s = s.parent) {
    if (s.refs.some((r) => r.name === name)) return true
  }
  return false
}

function isDescendant(scope: Scope, of: Scope): boolean {
  for (let s: Scope | null = scope; s !== null; s = s.parent) if (s === of) return true
  return false
}

/**
 * Why `sql` would not run on one shard: the brain-scoped tables it touches without an equality on
 * `brain_id` (directly, or through a join on `brain_id` with a table that has one). Empty when it
 * would, or when it is exempt (transaction control, DDL, LISTEN).
 */
export function unpinnedTables(sql: string, tables: Set<string>): string[] {
  const text = normalizeSql(sql)
  if (EXEMPT.test(text)) return []
  const all = scopes(text)
  const problems = all.flatMap((s) => collect(s, tables))
  for (const scope of all) {
    // `segment:name` proven pinned in this scope: by a qualified or bare restriction, then through
    // joins. Restrictions in subqueries (correlated, `outer.brain_id = $1`) count for every branch.
    const pinned = new Set<string>()
    const segments = [...new Set(scope.refs.map((r) => r.segment))]
    const keys = (s: Scope, name: string, segment: number) =>
      s === scope ? [`${segment}:${name}`] : segments.map((g) => `${g}:${name}`)
    for (const r of scope.refs) {
      const bare = scope.pins.some((p) => p.name === null && p.segment === r.segment)
      if (bare || r.insert) pinned.add(`${r.segment}:${r.name}`)
    }
    const visible = all.filter((s) => isDescendant(s, scope))
    const from = (s: Scope, name: string) => s === scope || !shadows(s, scope, name)
    for (const s of visible)
      for (const p of s.pins)
        if (p.name !== null && from(s, p.name))
          for (const key of keys(s, p.name, p.segment)) pinned.add(key)
    for (let grew = true; grew;) {
      grew = false
      for (const s of visible)
        for (const { a, b, segment } of s.edges) {
          if (!from(s, a) || !from(s, b)) continue
          const ka = keys(s, a, segment)
          const kb = keys(s, b, segment)
          for (let i = 0; i < ka.length; i++) {
            if (pinned.has(ka[i]!) === pinned.has(kb[i]!)) continue
            pinned.add(ka[i]!).add(kb[i]!)
            grew = true
          }
        }
    }
    for (const r of scope.refs)
      if (!pinned.has(`${r.segment}:${r.name}`))
        problems.push(`${r.table}${r.name === r.table ? '' : ` ${r.name}`} has no brain_id = $n`)
  }
  return problems
}
