import kafkajs from 'kafkajs'
import type { PartitionAssigner } from 'kafkajs'

const { PartitionAssigners } = kafkajs

/**
 * The one group protocol both adapters speak: librdkafka's `roundrobin`. A group only forms when
 * every member offers a protocol of the same name ("Inconsistent group protocol" otherwise), and
 * kafkajs calls its round-robin assigner `RoundRobinAssigner`. Its metadata and assignments are
 * the standard consumer-protocol encoding (version 0), which librdkafka reads and writes too, so
 * either client may lead the group: a rolling restart from one client to the other keeps it
 * consuming.
 */
export const SHARED_ASSIGNMENT_PROTOCOL = 'roundrobin'

/** kafkajs's round-robin assignment under librdkafka's protocol name. */
export const librdkafkaRoundRobin: PartitionAssigner = (config) => ({ ...PartitionAssigners.roundRobin(config), name: SHARED_ASSIGNMENT_PROTOCOL })
