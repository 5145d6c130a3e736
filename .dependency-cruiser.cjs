// Import rules `npm run lint` enforces on src/ (ARCHITECTURE.md explains the layers).
// A folder imports only from its own layer or the layers below it; no module imports itself back
// through any chain of imports (type imports count: a type cycle is still a knot to read through).

/** Bottom first. Folders in one layer may import each other, never in a circle. */
const LAYERS = [
  ['model'],
  ['tokens', 'context'],
  ['budget', 'prune', 'compact', 'lineage'],
  ['store'],
  ['session'],
  ['config', 'import', 'integrations', 'recall', 'eval', 'report', 'demo'],
  ['cli'],
];

const folders = (list) => `^src/(${list.join('|')})/`;
const known = LAYERS.flat();

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.join('-')}`,
  comment: `${layer.join(', ')} must not import from a layer above it (${LAYERS.slice(i + 1).flat().join(', ')})`,
  severity: 'error',
  from: { path: folders(layer) },
  to: { path: folders(LAYERS.slice(i + 1).flat()) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'a module must not import itself back through a chain of imports',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'entry-points-on-top',
      comment:
        'the public entry files (src/*.ts) re-export the layers; only they and the CLI may import them',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: '^src/cli/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'session-class-behind-its-interface',
      comment:
        'only the session layer\'s index and the public entry files import session.ts (the Session class); ' +
        'steps take a StepContext, the layers above a SessionHandle',
      severity: 'error',
      from: { pathNot: '^src/(session/index\\.ts|[^/]+\\.ts)$' },
      to: { path: '^src/session/session\\.ts$' },
    },
    {
      name: 'every-folder-has-a-layer',
      comment: 'a new folder under src/ needs its place in LAYERS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: folders(known) },
      to: {},
    },
    {
      name: 'every-imported-folder-has-a-layer',
      comment: 'a new folder under src/ needs its place in LAYERS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: {},
      to: { path: '^src/[^/]+/', pathNot: folders(known) },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
