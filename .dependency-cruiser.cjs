/**
 * The layer order of docs/architecture.md ("Layers"), enforced by `npm run lint`: a module may
 * import modules of its own layer or of layers below it, never above, and no import cycle is
 * allowed anywhere. Bottom to top:
 */
const LAYERS = [
  ['diag', '^src/(diag/|version\\.ts$)'],
  ['graph', '^src/graph/'],
  ['fs', '^src/fs/'],
  ['codecs', '^src/(onnx|ir)/'],
  ['io', '^src/io/'],
  ['shape', '^src/shape/'],
  ['mappings', '^mappings/'],
  ['convert', '^src/convert/'],
  ['equiv', '^src/equiv/'],
  ['batch', '^src/batch/'],
  ['api', '^src/(api|index)\\.ts$'],
  ['cli', '^src/cli/'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}`,
  comment: `${name} may not import a layer above it (${LAYERS.slice(i + 1).map(([n]) => n).join(', ')}): see docs/architecture.md`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => `(${p})`).join('|') },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      // Type-only imports are erased at run time; classes that name each other's types (Graph,
      // Node, Value) are not a cycle of modules.
      name: 'no-circular',
      comment: 'A module cycle: move the shared piece to the lower layer (docs/architecture.md).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
