import type { ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import { BodyWriter, encoded } from './body-writer.js'

// The serving rows of every view and session batch, written as bytes in one pass like the facts
// (json-each-row.ts): the same bytes JSON.stringify makes of their row objects (serving-bodies.test.ts).

const K = encoded({
  openKey: '{"KeyDeveloperId":', propertyObjectViewId: ',"PropertyObjectViewId":', factId: ',"FactId":', developerId: ',"DeveloperId":',
  sessionId: ',"SessionId":', closed: ',"IsClosed":1', open: ',"IsClosed":0', durationSeconds: ',"DurationSeconds":',
  viewerKind: ',"ViewerKind":', eventTime: ',"EventTime":', ingestionTime: ',"IngestionTime":', close: '}\n',
})

const LINE_BYTES_GUESS = 300

export const servingViewBody = (rows: readonly ServingViewRow[]): Uint8Array => {
  const w = new BodyWriter(rows.length * LINE_BYTES_GUESS)
  for (const r of rows) {
    w.raw(K.openKey).json(r.keyDeveloperId)
      .raw(K.propertyObjectViewId).json(r.propertyObjectViewId)
      .raw(K.factId).json(r.factId)
      .raw(K.developerId).json(r.developerId)
      .raw(K.sessionId).json(r.sessionId)
      .raw(r.isClosed ? K.closed : K.open)
      .raw(K.durationSeconds).num(r.durationSeconds)
      .raw(K.eventTime).time(r.eventTime)
      .raw(K.ingestionTime).time(r.ingestionTime)
      .raw(K.close)
  }
  return w.bytes
}

export const servingSessionBody = (rows: readonly ServingSessionRow[]): Uint8Array => {
  const w = new BodyWriter(rows.length * LINE_BYTES_GUESS)
  for (const r of rows) {
    w.raw(K.openKey).json(r.keyDeveloperId)
      .raw(K.sessionId).json(r.sessionId)
      .raw(K.factId).json(r.factId)
      .raw(K.durationSeconds).num(r.durationSeconds)
      .raw(K.viewerKind).json(r.viewerKind)
      .raw(K.eventTime).time(r.eventTime)
      .raw(K.ingestionTime).time(r.ingestionTime)
      .raw(K.close)
  }
  return w.bytes
}
