/**
 * Attribute names of OpenTelemetry's semantic conventions that the spans use. The stable ones come
 * from @opentelemetry/semantic-conventions; the messaging ones (and db.system.name's `clickhouse`
 * value) are still "development" there, in the package's `incubating` entry, which may change in
 * any minor release: as the package advises, they are copied here, and a unit test
 * (test/unit/adapters/observability/semconv.test.ts) holds each copy equal to the installed package.
 */
export {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_TYPE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions'

export const ATTR_MESSAGING_SYSTEM = 'messaging.system' as const
export const ATTR_MESSAGING_OPERATION_NAME = 'messaging.operation.name' as const
export const ATTR_MESSAGING_OPERATION_TYPE = 'messaging.operation.type' as const
export const ATTR_MESSAGING_DESTINATION_NAME = 'messaging.destination.name' as const
export const ATTR_MESSAGING_DESTINATION_PARTITION_ID = 'messaging.destination.partition.id' as const
export const ATTR_MESSAGING_CONSUMER_GROUP_NAME = 'messaging.consumer.group.name' as const
export const ATTR_MESSAGING_BATCH_MESSAGE_COUNT = 'messaging.batch.message_count' as const
export const ATTR_MESSAGING_MESSAGE_ID = 'messaging.message.id' as const
export const ATTR_MESSAGING_KAFKA_OFFSET = 'messaging.kafka.offset' as const
export const MESSAGING_SYSTEM_VALUE_KAFKA = 'kafka' as const
export const MESSAGING_OPERATION_TYPE_VALUE_PROCESS = 'process' as const
export const MESSAGING_OPERATION_TYPE_VALUE_SEND = 'send' as const
export const DB_SYSTEM_NAME_VALUE_CLICKHOUSE = 'clickhouse' as const
/** The name of the event that records an exception on a span (OpenTelemetry's exception event). */
export const EVENT_EXCEPTION = 'exception' as const

/**
 * Our own attributes, for what the conventions have no name for; in the `dev_stats.` namespace so
 * that they never clash with a future convention.
 */
/** Per topic-partition the batch covers: `<topic>/<partition>:<first offset>-<last offset>`. */
export const ATTR_DEV_STATS_OFFSET_RANGES = 'dev_stats.kafka.offset_ranges' as const
/** Rows a database insert carried (db.response.returned_rows counts rows read, not written). */
export const ATTR_DEV_STATS_ROW_COUNT = 'dev_stats.db.row_count' as const
/** On a dead-letter exception event: how many records of the batch were dead-lettered for that reason. */
export const ATTR_DEV_STATS_DEAD_LETTER_COUNT = 'dev_stats.dead_letter.count' as const
