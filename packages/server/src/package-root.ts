import { fileURLToPath } from 'node:url'

/**
 * Whether this module runs built (`dist/src/*.js`, as `npm start` and an installed package run it) or from
 * its TypeScript sources (`src/*.ts` under tsx or vitest). Files that ship beside the code (package.json,
 * the documentation copied at build time) are found from here.
 */
export const RUNS_BUILT = import.meta.url.includes('/dist/src/')

/** The server package's root folder (where its package.json is), built or not. */
export const PACKAGE_ROOT = fileURLToPath(new URL(RUNS_BUILT ? '../../' : '../', import.meta.url))
