export const EXPECTED_CONTRACT_VERSION = '1'

export interface ContractVersionWarning {
  readonly code: 'contract-version-mismatch'
  readonly expected: string
  readonly actual: string
}

/**
 * A mismatch is a warning, never a failure: the compatible part is processed (seed 001). A
 * producer that does not send the header at all is not a mismatch.
 */
export const checkContractVersion = (
  actual: string | undefined,
  expected: string = EXPECTED_CONTRACT_VERSION,
): ContractVersionWarning | undefined =>
  actual === undefined || actual === expected ? undefined : { code: 'contract-version-mismatch', expected, actual }
