import type { ConsumerReplay, ReplayOutcome } from '../../application/replay/replay-consumer.js'
import type { GroupMember } from '../../application/ports/consumer-group-admin.port.js'

const membersText = (members: readonly GroupMember[]): string =>
  members.map((m) => `${m.clientId} at ${m.host} (${m.memberId})`).join(', ')

/** One consumer's plan: per partition the committed offset, the new one and how many records are read again. */
export const planText = (r: ConsumerReplay, from: number): string => {
  const { consumer, plan } = r
  const rows = plan.map((p) => [String(p.partition), p.committed ?? '-', String(p.next), p.reread >= 0 ? String(p.reread) : `skips ${-p.reread}`])
  const head = ['partition', 'committed', 'new', 're-read']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)))
  const line = (cells: readonly string[]) => `  ${cells.map((c, i) => c.padStart(widths[i] as number)).join('  ')}`
  const total = plan.reduce((n, p) => n + Math.max(0, p.reread), 0)
  const skipped = plan.reduce((n, p) => n + Math.max(0, -p.reread), 0)
  return [
    `${consumer.spec.key} (${consumer.spec.name}): group ${consumer.groupId} on ${consumer.topics.source} from ${new Date(from).toISOString()}`,
    line(head),
    ...rows.map(line),
    `  ${total} record(s) read again${skipped > 0 ? `, ${skipped} skipped` : ''} on ${plan.length} partition(s); ${consumer.topics.retry} is left as it is`,
    ...(r.members.length > 0 ? [`  the group has ${r.members.length} active member(s): ${membersText(r.members)}`] : []),
  ].join('\n')
}

export const refusalText = (busy: readonly ConsumerReplay[]): string =>
  [
    ...busy.map((r) => `refused: group ${r.consumer.groupId} (${r.consumer.spec.key}) has ${r.members.length} active member(s): ${membersText(r.members)}`),
    'Stop every service instance of these groups (dev-stats-ingest start) first: Kafka refuses to move the offsets of a group that has members.',
    'Nothing was changed.',
  ].join('\n')

export const outcomeText = (outcome: ReplayOutcome): string => {
  switch (outcome.kind) {
    case 'planned':
      return outcome.replays.some((r) => r.members.length > 0)
        ? 'dry run: nothing changed (a run without --dry-run is refused while a group has members)'
        : 'dry run: nothing changed'
    case 'applied':
      return `moved ${outcome.replays.length} group(s); start the service to re-read`
    case 'refused':
      return refusalText(outcome.busy)
  }
}
