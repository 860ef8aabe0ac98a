/**
 * Keeps, per candidate, the `max` contributors with the largest summed weight, as a flat
 * [node, weight, node, weight, ...] list (one that falls out and comes back restarts from 0).
 */
export function keepTop(
  via: Map<number, number[]>,
  candidate: number,
  contributor: number,
  weight: number,
  max: number,
): void {
  let list = via.get(candidate)
  if (list === undefined) via.set(candidate, (list = []))
  for (let i = 0; i < list.length; i += 2)
    if (list[i] === contributor) {
      list[i + 1]! += weight
      return
    }
  if (list.length < 2 * max) {
    list.push(contributor, weight)
    return
  }
  let min = 1
  for (let i = 3; i < list.length; i += 2) if (list[i]! < list[min]!) min = i
  if (weight > list[min]!) {
    list[min - 1] = contributor
    list[min] = weight
  }
}

/** The contributors of a {@link keepTop} list, heaviest first (ties by node number). */
export function topContributors(list: readonly number[]): number[] {
  const order: number[] = []
  for (let i = 0; i < list.length; i += 2) order.push(i)
  order.sort((a, b) => list[b + 1]! - list[a + 1]! || list[a]! - list[b]!)
  return order.map((i) => list[i]!)
}
