/**
 * k-medoids by PAM (Kaufman & Rousseeuw, "Finding Groups in Data", 1990, ch. 2): BUILD picks medoids
 * greedily (first the point with the least total distance, then whichever lowers the total most),
 * SWAP exchanges a medoid with a non-medoid while that lowers the total. `distance` must be symmetric.
 * Returns the medoids (indices) and each point's cluster (index into the medoids). Deterministic: ties
 * go to the lowest index.
 */
export function kMedoids(
  n: number,
  k: number,
  distance: (a: number, b: number) => number,
  maxSwaps = 10,
): { medoids: number[]; assignment: number[] } {
  if (n === 0 || k <= 0) return { medoids: [], assignment: [] }
  const d: Float64Array[] = []
  for (let i = 0; i < n; i++) d.push(new Float64Array(n))
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const v = distance(i, j)
      d[i]![j] = v
      d[j]![i] = v
    }
  const total = (medoids: number[]) => {
    let sum = 0
    for (let i = 0; i < n; i++) {
      let best = Infinity
      for (const m of medoids) best = Math.min(best, d[i]![m]!)
      sum += best
    }
    return sum
  }

  // BUILD
  const medoids: number[] = []
  let current = Infinity
  while (medoids.length < Math.min(k, n)) {
    let pick = -1
    let pickCost = Infinity
    for (let c = 0; c < n; c++) {
      if (medoids.includes(c)) continue
      const cost = total([...medoids, c])
      if (cost < pickCost) {
        pick = c
        pickCost = cost
      }
    }
    medoids.push(pick)
    current = pickCost
  }

  // SWAP
  for (let round = 0; round < maxSwaps; round++) {
    let improved = false
    for (let mi = 0; mi < medoids.length; mi++) {
      for (let c = 0; c < n; c++) {
        if (medoids.includes(c)) continue
        const trial = medoids.slice()
        trial[mi] = c
        const cost = total(trial)
        if (cost < current - 1e-12) {
          medoids[mi] = c
          current = cost
          improved = true
        }
      }
    }
    if (!improved) break
  }

  const assignment = new Array<number>(n)
  for (let i = 0; i < n; i++) {
    let best = 0
    for (let m = 1; m < medoids.length; m++)
      if (d[i]![medoids[m]!]! < d[i]![medoids[best]!]!) best = m
    assignment[i] = best
  }
  return { medoids, assignment }
}
