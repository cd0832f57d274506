import * as E from 'fp-ts/lib/Either.js'
import { afterEach, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { dimensionUpsertedHandler } from '../../../src/application/handlers/dimension-upserted.handler.js'
import { getFunnelScope } from '../../../src/application/read/get-funnel-scope.js'
import type { EventHandler } from '../../../src/application/handlers/event-handler.js'
import { UPPER_LEVELS } from '../../../src/domain/dimension-upsert.js'
import type { Guid } from '../../../src/domain/guid.js'
import { binaryRecord, EMPTY, path } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

const dims = UPPER_LEVELS.map((level) => dimensionUpsertedHandler(level)())
const [developer, project, building, layoutGroup, layout] = dims as [EventHandler, EventHandler, EventHandler, EventHandler, EventHandler]
let h: Harness
afterEach(async () => h?.stopAll())

describe('the five upper dimension consumers', () => {
  it('are registered with the spec §2 topics and groups', () => {
    const dims = CONSUMERS.filter((c) => c.name.startsWith('dim-') && c.name !== 'dim-property-object')
    expect(dims.map((c) => [c.topic, c.groupId, c.key])).toEqual([
      ['pin.chessboard.developer-upserted.v1', 'dev-stats-dim-developer', 'DEVELOPER_UPSERTED'],
      ['pin.chessboard.project-upserted.v1', 'dev-stats-dim-project', 'PROJECT_UPSERTED'],
      ['pin.chessboard.building-upserted.v1', 'dev-stats-dim-building', 'BUILDING_UPSERTED'],
      ['pin.chessboard.layout-group-upserted.v1', 'dev-stats-dim-layout-group', 'LAYOUT_GROUP_UPSERTED'],
      ['pin.chessboard.layout-upserted.v1', 'dev-stats-dim-layout', 'LAYOUT_UPSERTED'],
    ])
  })

  it('every version lands in its dim_* table; the read side names the funnel scope by the latest version; poison is dead-lettered', async () => {
    h = new Harness(dims)
    await h.start()
    const p = path()
    const v = (o: Record<string, unknown>, at = '2026-11-30T09:00:00Z') => ({ UpsertedAt: at, ...o })
    h.publish(
      binaryRecord(developer.topic, v({ Id: p.DeveloperId, Name: 'Acme Homes' }, '2026-11-30T10:00:00Z')),
      binaryRecord(developer.topic, v({ Id: p.DeveloperId, Name: 'Acme (old)' })), // an older version arriving later
      binaryRecord(project.topic, v({ Id: p.ProjectId, DeveloperId: p.DeveloperId, Name: 'Riverside' })),
      binaryRecord(building.topic, v({ Id: p.BuildingId, DeveloperId: p.DeveloperId, ProjectId: p.ProjectId, Name: 'Tower B' })),
      binaryRecord(layoutGroup.topic, v({ Id: p.LayoutGroupId, DeveloperId: p.DeveloperId, ProjectId: p.ProjectId, BuildingId: p.BuildingId })),
      binaryRecord(layout.topic, v({ Id: p.LayoutId, DeveloperId: p.DeveloperId, ProjectId: p.ProjectId, BuildingId: p.BuildingId, LayoutGroupId: p.LayoutGroupId, Name: '2-room' })),
      binaryRecord(project.topic, v({ Id: EMPTY, DeveloperId: p.DeveloperId })),
      binaryRecord(layout.topic, v({ Id: p.LayoutId, DeveloperId: p.DeveloperId })),
    )
    await waitUntil(() => dims.every((x) => h.caughtUp(x)))
    expect(['dim_developer', 'dim_project', 'dim_building', 'dim_layout_group', 'dim_layout'].map((t) => h.tables.of(t as 'dim_layout').length)).toEqual([2, 1, 1, 1, 1])
    expect(h.dlq(project).map((r) => r.headers['dlq-reason'])).toEqual(['empty-id'])
    expect(h.dlq(layout).map((r) => r.headers['dlq-reason'])).toEqual(['undecodable'])
    const scope = await getFunnelScope(h.readModel)({ developerId: p.DeveloperId as Guid }, { projectId: p.ProjectId as Guid, layoutGroupId: p.LayoutGroupId as Guid, layoutId: p.LayoutId as Guid })
    expect(scope).toEqual(E.right([
      { level: 'developer', id: p.DeveloperId, name: 'Acme Homes' },
      { level: 'project', id: p.ProjectId, name: 'Riverside' },
      { level: 'layout-group', id: p.LayoutGroupId, name: null },
      { level: 'layout', id: p.LayoutId, name: '2-room' },
    ]))
    expect(await getFunnelScope(h.readModel)(null)).toEqual(E.left(expect.objectContaining({ code: 'actor-required' })))
  })
})
