/** Layer rules of the design: the domain is pure, the application knows no adapter, only composition knows inversify. */
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
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
}
