/**
 * The architecture, checked by a tool (`npm run deps:check`):
 * - no circular imports anywhere;
 * - a context is entered only through its front door (`libs/<context>/src/index.ts`);
 * - domain code imports no infrastructure, interface, Nest or TypeORM;
 * - the shared kernel stays free of frameworks; shared libs never import a context;
 * - TypeORM entities never leave infrastructure (module files register them);
 * - libraries never import an app, and an app never imports another app;
 * - HTTP interface code reaches infrastructure only through the application layer.
 * What a front door exports (no *Store/*Repository, nothing from infrastructure/) is checked by
 * test/architecture/front-doors.ts, which `npm run deps:check` runs after this.
 */
const CONTEXT = '^libs/(?!shared/)([^/]+)/src/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Circular imports break swc-compiled decorators and hide coupling; extract the shared concept or use an event.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'context-through-front-door',
      severity: 'error',
      comment: 'Another context is used only through its index.ts (@workbase/<context>).',
      from: { path: '^libs/([^/]+)/' },
      to: {
        path: `${CONTEXT}(?!index\\.ts$).+`,
        pathNot: ['^libs/$1/'],
      },
    },
    {
      name: 'app-to-context-front-door',
      severity: 'error',
      comment: 'Apps compose contexts through their index.ts.',
      from: { path: '^apps/' },
      to: { path: `${CONTEXT}(?!index\\.ts$).+` },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'Domain code knows nothing of infrastructure, HTTP, Nest or TypeORM.',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: { path: ['/infrastructure/', '/interface/', '^node_modules/(@nestjs|typeorm|pg)/'] },
    },
    {
      name: 'application-not-interface',
      severity: 'error',
      comment: 'Use cases do not depend on controllers or DTOs of the HTTP layer.',
      from: { path: '^libs/[^/]+/src/application/' },
      to: { path: '/interface/' },
    },
    {
      name: 'kernel-is-framework-free',
      severity: 'error',
      from: { path: '^libs/shared/kernel/' },
      to: { path: ['^node_modules/(@nestjs|typeorm|pg|express)/', '^libs/shared/(?!kernel/)'] },
    },
    {
      name: 'shared-never-imports-a-context',
      severity: 'error',
      from: { path: '^libs/shared/' },
      to: { path: CONTEXT },
    },
    {
      name: 'orm-entities-stay-in-infrastructure',
      severity: 'error',
      comment: 'TypeORM entities are a storage detail: repositories map them to plain types, so no entity reaches a use case or an HTTP response.',
      from: { path: '^libs/[^/]+/src/', pathNot: ['/infrastructure/', '\\.module\\.ts$'] },
      to: { path: ['orm-entit(y|ies)\\.ts$'] },
    },
    {
      name: 'interface-not-infrastructure',
      severity: 'error',
      comment: 'Controllers, DTOs and presenters call use cases, queries and facades; repositories and stores stay behind the application layer.',
      from: {
        path: '^libs/[^/]+/src/interface/',
        // Known exceptions, each to be removed by the change that moves its type or call behind the
        // application layer (scim: issue 28's contract work).
        pathNot: [
          '^libs/scim/src/interface/http/scim\\.responses\\.ts$',
        ],
      },
      to: { path: '^libs/[^/]+/src/infrastructure/' },
    },
    {
      name: 'apps-never-import-another-app',
      severity: 'error',
      comment: 'An app (api, worker, cli) is entered by its own main; what apps share (the composition root AppModule, the process lifecycle) is in apps/shared, which imports no app.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: ['^apps/$1/', '^apps/shared/'] },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.spec\\.ts$', '^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
