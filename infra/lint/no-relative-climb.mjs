// ESLint rule `mos/no-relative-climb`: a relative import must stay inside the package that
// holds the importing file (the nearest folder with a package.json). Reaching into another
// package's files (`../../../core/src/...`) skips its exports and the import-direction rules;
// import it by its @mos name instead.
import { existsSync } from 'node:fs';
import path from 'node:path';

const roots = new Map();
function packageRoot(dir) {
  if (roots.has(dir)) return roots.get(dir);
  const parent = path.dirname(dir);
  const root = existsSync(path.join(dir, 'package.json')) ? dir : parent === dir ? null : packageRoot(parent);
  roots.set(dir, root);
  return root;
}

export const noRelativeClimb = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow relative imports that leave their package' },
    schema: [],
    messages: {
      climb: "'{{source}}' leaves its package ({{pkg}}): import another package by its @mos name and public exports, not by a relative path.",
    },
  },
  create(context) {
    const dir = path.dirname(context.filename);
    const root = packageRoot(dir);
    if (!root) return {};
    const check = (node) => {
      const source = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null;
      if (!source || !source.startsWith('.')) return;
      const inside = path.relative(root, path.resolve(dir, source));
      if (inside.startsWith('..') || path.isAbsolute(inside)) {
        context.report({ node, messageId: 'climb', data: { source, pkg: path.relative(context.cwd, root) || '.' } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { 'no-relative-climb': noRelativeClimb } };
