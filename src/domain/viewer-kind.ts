import type { Guid } from './guid.js'

export type ViewerKind = 'Guest' | 'User' | 'Agent' | 'Investor'

/** Sessions: presence of UserId only, no role (seed 000). */
export const sessionViewerKind = (userId: Guid | null): 'Guest' | 'User' => (userId === null ? 'Guest' : 'User')

/** Views: Guest without a user; otherwise the additive ViewerRole when it names a known role, else User. */
export const viewViewerKind = (userId: Guid | null, viewerRole: string | null | undefined): ViewerKind => {
  if (userId === null) return 'Guest'
  if (viewerRole === 'Agent' || viewerRole === 'Investor') return viewerRole
  return 'User'
}
