/**
 * What the soak expects of one produced record, one line of DIR/ledger.ndjson (and a row of the
 * end check's ledger table). Empty strings and 0 stand for "not applicable" so that the line
 * loads into ClickHouse as it is.
 */
export type Outcome = 'row' | 'poison' | 'gap' | 'skip'

export interface LedgerEntry {
  /** One number per logical record; a repeated delivery carries its original's Seq. */
  readonly Seq: number
  /** The consumer's registry key, e.g. SESSION_ENDED. */
  readonly Consumer: string
  readonly Outcome: Outcome
  /** dlq-reason expected for poison and gap. */
  readonly Reason: string
  readonly MessageId: string
  /** 0 for the first delivery, 1 for a repeat. */
  readonly Copy: number
  /** session_facts or property_object_view_facts, and the fact's identity with the fields it must carry. */
  readonly FactTable: string
  readonly FactKey: string
  /** A funnel stage row: stage, business key, and the group it counts in. */
  readonly Stage: string
  readonly BusinessKey: string
  readonly PropertyObjectId: string
  readonly DeveloperId: string
  readonly EventDate: string
  /** A dimension version: table, id, version (UpsertedAt in µs) and name. */
  readonly DimTable: string
  readonly DimId: string
  readonly Version: number
  readonly Name: string
  /** The record waits for a dimension produced after it (late) — stored all the same. */
  readonly Late: number
}

export const EMPTY_ENTRY: Omit<LedgerEntry, 'Seq' | 'Consumer' | 'Outcome' | 'MessageId'> = {
  Reason: '',
  Copy: 0,
  FactTable: '',
  FactKey: '',
  Stage: '',
  BusinessKey: '',
  PropertyObjectId: '',
  DeveloperId: '',
  EventDate: '',
  DimTable: '',
  DimId: '',
  Version: 0,
  Name: '',
  Late: 0,
}
