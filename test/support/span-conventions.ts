import * as semconv from '@opentelemetry/semantic-conventions/incubating'

/** Every attribute name of OpenTelemetry's registry, as the installed package spells them. */
export const REGISTRY_NAMES: ReadonlySet<string> = new Set(
  Object.entries(semconv).filter(([k, v]) => k.startsWith('ATTR_') && typeof v === 'string').map(([, v]) => v as string),
)

/** Names the registry still lists but deprecated for the ones we use; none may appear. */
export const DEPRECATED_NAMES = [
  'db.system', 'db.name', 'db.statement', 'db.sql.table', 'db.operation',
  'messaging.operation', 'messaging.kafka.consumer.group', 'messaging.kafka.message.offset', 'messaging.kafka.destination.partition',
  'net.peer.name', 'net.peer.port',
]

/** Names that break the conventions: neither in the registry nor in our own `dev_stats.` namespace, or deprecated. */
export const offConvention = (names: Iterable<string>): string[] =>
  [...names].filter((n) => DEPRECATED_NAMES.includes(n) || !(REGISTRY_NAMES.has(n) || n.startsWith('dev_stats.'))).sort()
