import type { DeadLetter } from '../../application/dlq/dead-letter.js'
import type { DeadLetterCount } from '../../application/dlq/summarize-dead-letters.js'

const iso = (t: number | null) => (t === null ? '-' : new Date(t).toISOString())
const text = (b: Uint8Array | null) => (b === null ? '(null)' : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'))

export const summaryText = (rows: readonly DeadLetterCount[], topics: readonly string[]): string => {
  if (rows.length === 0) return `no dead letters on ${topics.map((t) => `${t}.dlq`).join(', ')}`
  const w = Math.max(...rows.map((r) => r.sourceTopic.length), 'source topic'.length)
  const rw = Math.max(...rows.map((r) => r.reason.length), 'reason'.length)
  const head = `${'source topic'.padEnd(w)}  ${'reason'.padEnd(rw)}  ${'count'.padStart(7)}  ${'oldest'.padEnd(24)}  newest`
  const lines = rows.map((r) => `${r.sourceTopic.padEnd(w)}  ${r.reason.padEnd(rw)}  ${String(r.count).padStart(7)}  ${iso(r.oldest).padEnd(24)}  ${iso(r.newest)}`)
  return [head, ...lines].join('\n')
}

/** One dead letter: where it sits, its dlq-* headers, the producer's headers, key and payload as they are. */
export const deadLetterText = (d: DeadLetter): string => {
  const r = d.record
  const headers = Object.entries(r.headers)
  const dlq = headers.filter(([k]) => k.startsWith('dlq-'))
  const original = headers.filter(([k]) => !k.startsWith('dlq-'))
  return [
    `── ${r.topic} partition ${r.partition} offset ${r.offset}`,
    ...dlq.map(([k, v]) => `  ${k}: ${v}`),
    '  headers:',
    ...original.map(([k, v]) => `    ${k}: ${v}`),
    `  key: ${text(r.key)}`,
    `  value: ${text(r.value)}`,
  ].join('\n')
}
