import { z } from 'zod'

/** ISO 8601 UTC timestamp, e.g. `2024-03-08T00:00:00.000Z`. */
export const isoDate = z.string().min(1)

/**
 * The bi-temporal window of a fact (docs/time.md): event time `validAt`..`invalidAt` (null = unbounded)
 * and system time `createdAt`..`expiredAt`. Optional: records stored before they existed lack them.
 */
export const validityFields = {
  validAt: isoDate.nullable().optional(),
  invalidAt: isoDate.nullable().optional(),
  createdAt: isoDate.nullable().optional(),
  expiredAt: isoDate.nullable().optional(),
}

/** Free key/value map as stored on records (`properties`, `metadata`). */
export const jsonObject = z.record(z.string(), z.unknown())
export type JsonObject = z.infer<typeof jsonObject>

/** Sentiment of an entity or observation; the contract allows these three (CONTRACT.md section 2). */
export const polarity = z.enum(['positive', 'negative', 'neutral'])
export type Polarity = z.infer<typeof polarity>

/** Direction of a relationship as the original system names it. */
export const direction = z.enum(['in', 'out', 'neutral'])
export type Direction = z.infer<typeof direction>

/** The current time as an ISO string; one place so tests can reason about it. */
export function nowIso(): string {
  return new Date().toISOString()
}

/** The distinct items of `a` then `b`, first occurrence kept, at most `cap` (record id and label lists). */
export function union<T>(a: readonly T[], b: readonly T[], cap = Infinity): T[] {
  return [...new Set([...a, ...b])].slice(0, cap)
}
