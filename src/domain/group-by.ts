/** Items by key, each group in the items' order. */
export const groupBy = <T>(items: Iterable<T>, key: (t: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return groups
}

/** One item per key (the last of each), in the order keys first appear. */
export const distinctBy = <T>(items: readonly T[], key: (t: T) => string): T[] => [...new Map(items.map((t) => [key(t), t])).values()]
