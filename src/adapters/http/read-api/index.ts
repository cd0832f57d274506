// The read API's public pieces, for the package entry to re-export.
export { readApiPlugin, type ReadApiOptions, type ReadUseCases } from './read-api.plugin.js'
export { createTokenVerifier, type TokenKey, type TokenRejection, type TokenSettings, type TokenVerifier } from './bearer-token.js'
export type { ParameterError, Problem } from './problem.js'
