// Preloaded into the service by test/integration/ops/unasked-exit.test.ts (NODE_OPTIONS=--import):
// SIGUSR2 makes the process call process.exit(0) itself, as a library ending it might.
process.on('SIGUSR2', () => process.exit(0))
