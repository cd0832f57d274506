/**
 * Layer rules of the design: the domain is pure, the application knows no adapter, only composition
 * knows inversify, and the two Kafka clients' adapters meet only in their shared folder.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain imports only domain modules, io-ts and fp-ts',
      from: { path: '^src/domain' },
      to: { pathNot: ['^src/domain', 'node_modules/(io-ts|fp-ts)/'] },
    },
    {
      name: 'application-knows-no-adapter',
      severity: 'error',
      from: { path: '^src/application' },
      to: { path: ['^src/adapters', '^src/composition', '^src/demo', 'node_modules/(?!(io-ts|fp-ts)/)'] },
    },
    {
      name: 'only-composition-uses-inversify',
      severity: 'error',
      from: { pathNot: '^src/composition' },
      to: { path: 'node_modules/inversify' },
    },
    {
      name: 'kafkajs-adapter-knows-no-librdkafka',
      severity: 'error',
      comment: 'each Kafka client has its folder; what both use lives in src/adapters/kafka/shared',
      from: { path: '^src/adapters/kafka/kafkajs/' },
      to: { path: ['^src/adapters/kafka/librdkafka/', 'node_modules/@confluentinc/'] },
    },
    {
      name: 'librdkafka-adapter-knows-no-kafkajs-adapter',
      severity: 'error',
      comment: 'the librdkafka adapter reaches kafkajs (its offsets admin) only through src/adapters/kafka/shared',
      from: { path: '^src/adapters/kafka/librdkafka/' },
      to: { path: '^src/adapters/kafka/kafkajs/' },
    },
    {
      name: 'shared-kafka-code-knows-no-client-folder',
      severity: 'error',
      from: { path: '^src/adapters/kafka/shared/' },
      to: { path: ['^src/adapters/kafka/kafkajs/', '^src/adapters/kafka/librdkafka/', 'node_modules/@confluentinc/'] },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
}
