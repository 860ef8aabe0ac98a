// `prepack` of every published package (npm runs it in the package's folder before `npm pack` and
// `npm publish`): the tarball must hold the built code and the licence, which lives once at the root.
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
const entry = pkg.exports?.['.']?.default ?? pkg.main
if (entry !== undefined && !existsSync(entry)) {
  console.error(
    `${pkg.name}: ${entry} is missing. Run \`npm run build\` at the repository root first.`,
  )
  process.exit(1)
}
copyFileSync(fileURLToPath(new URL('../LICENSE', import.meta.url)), 'LICENSE')
