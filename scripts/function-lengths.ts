/**
 * Function-length metric for production code: every function, method, accessor, constructor and
 * arrow function with a body in the non-test `.ts` files under `packages/*\/src`, `adapters/*\/src`
 * and `plugins/*\/src`, measured in lines from its first token to its closing brace (leading
 * comments excluded). Nested functions are counted on their own and also inside their parent.
 * A second summary leaves out anonymous functions (callbacks passed inline, mostly one line), which
 * otherwise hold the overall median at a few lines whatever the named functions do.
 *
 *   npm run metrics:functions [-- <root>] [--json]
 *
 * `<root>` defaults to the current directory, so another checkout can be measured with the same
 * script. The files are only parsed, never type-checked, so the checkout needs no node_modules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'

/** One measured function. */
export interface FunctionLength {
  file: string
  line: number
  name: string
  lines: number
}

/** Summary statistics over a list of lengths (nearest-rank p90; median of the two middles when even). */
export interface LengthSummary {
  files: number
  count: number
  median: number
  mean: number
  p90: number
  max: number
}

const SOURCE_ROOTS = ['packages', 'adapters', 'plugins']
const EXCLUDED_DIRS = new Set(['test', 'testing', 'dist', 'benchmarks', 'node_modules'])

/** The production `.ts` files of every workspace package under `root`. */
export function productionFiles(root: string): string[] {
  const files: string[] = []
  for (const group of SOURCE_ROOTS) {
    const groupDir = join(root, group)
    for (const pkg of subdirectories(groupDir)) walk(join(groupDir, pkg, 'src'), files)
  }
  return files.sort()
}

function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory())
  } catch {
    return []
  }
}

function walk(dir: string, out: string[]): void {
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return
  }
  for (const name of entries) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (!EXCLUDED_DIRS.has(name)) walk(path, out)
    } else if (isProductionSource(name)) {
      out.push(path)
    }
  }
}

function isProductionSource(name: string): boolean {
  return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')
}

/** Every function-like node with a body in one source text. */
export function measureSource(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: FunctionLength[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ file, line: start + 1, name: functionName(node), lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function functionName(node: ts.SignatureDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  if (node.name) return node.name.getText()
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText()
  }
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText()
  return '(anonymous)'
}

/** Count, median, mean, p90 and max of the measured lengths. */
export function summarise(lengths: readonly number[], files: number): LengthSummary {
  const sorted = [...lengths].sort((a, b) => a - b)
  const count = sorted.length
  if (count === 0) return { files, count, median: 0, mean: 0, p90: 0, max: 0 }
  const middle = Math.floor(count / 2)
  const median = count % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  const mean = sorted.reduce((sum, n) => sum + n, 0) / count
  const p90 = sorted[Math.ceil(0.9 * count) - 1]
  return { files, count, median, mean, p90, max: sorted[count - 1] }
}

function main(argv: readonly string[]): void {
  const json = argv.includes('--json')
  const root = resolve(argv.find((arg) => !arg.startsWith('--')) ?? '.')
  const files = productionFiles(root)
  const functions = files.flatMap((file) =>
    measureSource(relative(root, file), readFileSync(file, 'utf8')),
  )
  const summary = summarise(
    functions.map((f) => f.lines),
    files.length,
  )
  const namedFunctions = functions.filter((f) => f.name !== '(anonymous)')
  const named = summarise(
    namedFunctions.map((f) => f.lines),
    files.length,
  )
  const longest = [...functions]
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line)
    .slice(0, 10)
  if (json) {
    console.log(JSON.stringify({ root, ...summary, named, longest }, null, 2))
    return
  }
  console.log(`root      ${root}`)
  console.log(`files     ${summary.files}`)
  console.log(`functions ${summary.count}`)
  console.log(`median    ${summary.median}`)
  console.log(`mean      ${summary.mean.toFixed(2)}`)
  console.log(`p90       ${summary.p90}`)
  console.log(`max       ${summary.max}`)
  console.log(
    `named     ${named.count} functions, median ${named.median}, mean ${named.mean.toFixed(2)}, p90 ${named.p90}`,
  )
  console.log('longest:')
  for (const f of longest)
    console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`)
}

main(process.argv.slice(2))
