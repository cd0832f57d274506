import type { Guid } from '../../domain/guid.js'

/** The caller of the read side: a developer's user. Without one, every query refuses (fail-closed). */
export interface DeveloperActor {
  readonly developerId: Guid
}

export interface AccessDenied {
  readonly code: 'actor-required'
  readonly message: string
}

export const accessDenied: AccessDenied = { code: 'actor-required', message: 'a developer actor is required' }
