/**
 * Which part of a paged list is on screen, as people read it: `21–40 of 45`. `skip` is the offset the
 * page was asked for, `shown` how many items came back, `total` how many matched in all.
 */
export function pageRange(skip: number, shown: number, total: number): string {
  if (shown === 0) return `0 of ${total}`
  return shown === 1 ? `${skip + 1} of ${total}` : `${skip + 1}–${skip + shown} of ${total}`
}
