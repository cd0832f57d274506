/** One record as the soak produces it (CloudEvents on Kafka, spec §3), identified by its `soak-seq` header. */
export interface SoakRecord {
  readonly topic: string
  readonly key: string | null
  readonly value: Buffer
  readonly headers: Record<string, string>
}

export const SEQ_HEADER = 'soak-seq'

export interface EnvelopeOptions {
  readonly seq: number
  /** null: no message id at all (poison missing-message-id). */
  readonly messageId: string | null
  readonly structured: boolean
  readonly contractVersion: string
  readonly key: string | null
  /** Sent as the value as it is, instead of the JSON of a payload (poison undecodable). */
  readonly rawValue?: string
}

/** Binary mode (attributes in ce_* headers) or structured mode (one JSON CloudEvent, payload under data). */
export const envelope = (topic: string, payload: unknown, o: EnvelopeOptions): SoakRecord => {
  const seq = String(o.seq)
  if (o.structured) {
    const event = {
      specversion: '1.0',
      ...(o.messageId === null ? {} : { id: o.messageId }),
      type: 'event',
      source: 'soak',
      contractversion: o.contractVersion,
      data: payload,
    }
    return {
      topic,
      key: o.key,
      value: Buffer.from(o.rawValue ?? JSON.stringify(event)),
      headers: { 'content-type': 'application/cloudevents+json; charset=utf-8', [SEQ_HEADER]: seq },
    }
  }
  return {
    topic,
    key: o.key,
    value: Buffer.from(o.rawValue ?? JSON.stringify(payload)),
    headers: {
      ce_specversion: '1.0',
      ce_type: 'event',
      ce_source: 'soak',
      ce_contractversion: o.contractVersion,
      ...(o.messageId === null ? {} : { ce_id: o.messageId }),
      [SEQ_HEADER]: seq,
    },
  }
}
