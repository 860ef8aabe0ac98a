import { readFileSync, readdirSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { builtCli } from '../support/built-cli.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface Manifest {
  name: string
  version: string
  private?: boolean
  files?: string[]
  license?: string
  engines?: Record<string, string>
  exports?: Record<string, Record<string, string>>
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  devDependencies?: Record<string, string>
}

const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  workspaces: string[]
}
const workspaces = root.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(ROOT, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`)
    : [pattern],
)
const manifests = workspaces.map((dir) => ({
  dir,
  pkg: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest,
}))
const published = manifests.filter((m) => m.pkg.private !== true)

/**
 * The bare module names a package's published JavaScript imports (static, dynamic or require); folders
 * its `files` list leaves out (`!dist/src/app`: the console's browser code, shipped bundled) are skipped.
 */
function importedPackages(dir: string, files: string[]): Set<string> {
  const found = new Set<string>()
  const excluded = files.filter((f) => f.startsWith('!') && !f.includes('*')).map((f) => f.slice(1))
  const walk = (path: string) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry)
      if (excluded.some((e) => full === join(ROOT, dir, e))) continue
      if (statSync(full).isDirectory()) walk(full)
      else if (full.endsWith('.js') && !full.endsWith('.test.js')) {
        const text = readFileSync(full, 'utf8')
        // A specifier holds no whitespace: `? 'from '` then `: ''` in the local extractor is no import.
        for (const [, spec] of text.matchAll(
          /(?:\bfrom\s+|\bimport\(\s*|\brequire\(\s*)['"]([^'"./\s][^'"\s]*)['"]/g,
        )) {
          if (spec!.startsWith('node:')) continue
          const name = spec!.startsWith('@')
            ? spec!.split('/').slice(0, 2).join('/')
            : spec!.split('/')[0]!
          if (!builtinModules.includes(name)) found.add(name)
        }
      }
    }
  }
  for (const sub of ['dist/src', 'dist/testing']) {
    try {
      walk(join(ROOT, dir, sub))
    } catch {
      // no such folder in this package
    }
  }
  return found
}

describe('package manifests', () => {
  it('move their versions together, and depend on each other at exactly that version', () => {
    const version = manifests.find((m) => m.pkg.name === '@engram/core')!.pkg.version
    for (const { pkg } of manifests) {
      expect(pkg.version, pkg.name).toBe(version)
      for (const deps of [pkg.dependencies, pkg.peerDependencies, pkg.devDependencies])
        for (const [name, range] of Object.entries(deps ?? {}))
          if (name.startsWith('@engram/')) expect(range, `${pkg.name} -> ${name}`).toBe(version)
    }
  })

  it('publish built entry points, a file list, the licence and the engine', () => {
    for (const { pkg } of published) {
      expect(pkg.license, pkg.name).toBe('Apache-2.0')
      expect(pkg.engines?.node, pkg.name).toBeDefined()
      expect(pkg.files, pkg.name).toEqual(expect.arrayContaining(['dist/src', 'README.md']))
      for (const [subpath, conditions] of Object.entries(pkg.exports ?? {})) {
        // Resolvable without the workspace's `source` condition: types and default point into dist/.
        expect(conditions.default, `${pkg.name} ${subpath}`).toMatch(/^\.\/dist\//)
        expect(conditions.types, `${pkg.name} ${subpath}`).toMatch(/^\.\/dist\/.*\.d\.ts$/)
      }
    }
  })

  it('declare every package their built code imports (nothing used at run time only in devDependencies)', () => {
    builtCli()
    for (const { dir, pkg } of published) {
      const declared = new Set([
        ...Object.keys(pkg.dependencies ?? {}),
        ...Object.keys(pkg.peerDependencies ?? {}),
      ])
      const missing = [...importedPackages(dir, pkg.files ?? [])].filter(
        (n) => n !== pkg.name && !declared.has(n),
      )
      expect(missing, pkg.name).toEqual([])
    }
  })

  it('keep optional plugins out of a default install (optional peers)', () => {
    const server = manifests.find((m) => m.pkg.name === '@engram/server')!.pkg
    for (const plugin of ['@engram/embedder-transformers', '@engram/extractor-llm']) {
      expect(server.dependencies?.[plugin], plugin).toBeUndefined()
      expect(server.peerDependenciesMeta?.[plugin]?.optional, plugin).toBe(true)
    }
  })
})
