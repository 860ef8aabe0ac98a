import type { SystemResult } from '../run/run-types.js'

/**
 * Verdicts as in Anserini's reproduction configs (docs/regressions.md): a measured number is OK when it equals the
 * expected value to 4 decimals, OKish when within 0.0005 (floating point or library drift), else FAIL. A metric
 * with no expected value is NEW: the run prints it so a first verified run can pin it.
 */
export type Verdict = 'OK' | 'OKish' | 'FAIL' | 'NEW' | 'PENDING'

export const OKISH_TOLERANCE = 0.0005

export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000
}

export function judge(measured: number, expected: number | undefined): Verdict {
  if (expected === undefined) return 'NEW'
  if (!Number.isFinite(measured)) return 'FAIL'
  if (Math.abs(round4(measured) - expected) < 1e-9) return 'OK'
  // Compare with a hair of slack so 0.0005 exactly (binary rounding) still counts as OKish.
  return Math.abs(measured - expected) <= OKISH_TOLERANCE + 1e-12 ? 'OKish' : 'FAIL'
}

const SEVERITY: Record<Verdict, number> = { OK: 0, OKish: 1, NEW: 2, PENDING: 3, FAIL: 4 }

/** The worst verdict of a set (FAIL > PENDING > NEW > OKish > OK); OK for an empty set. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((w, v) => (SEVERITY[v] > SEVERITY[w] ? v : w), 'OK')
}

/**
 * The verdict of a config run: the worst of its index check and every system's checks; a pending Engram
 * system is PENDING, a pending peer does not count.
 */
export function configVerdict(indexStats: Verdict, systems: readonly SystemResult[]): Verdict {
  const all: Verdict[] = [indexStats]
  for (const s of systems) {
    if (s.status === 'pending') all.push(s.role === 'engram' ? 'PENDING' : 'OK')
    else all.push(s.statsVerdict ?? 'OK', ...Object.values(s.verdicts ?? {}))
  }
  return worstVerdict(all)
}
