import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The package stands alone: it imports nothing of the product (so it follows Twilio, not the product's
 * idea of Twilio), only the dependencies its package.json lists, and its modules form no import circle.
 */

const root = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.startsWith('node_modules'))
  .map((file) => join(root, file));
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*? from '([^']+)'/gms)].map((match) => match[1] ?? '');
/** `twilio/lib/jwt/AccessToken` → `twilio`, `@scope/name/x` → `@scope/name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the package', () => {
  it('imports nothing outside itself but node and its listed dependencies', () => {
    const listed = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]);
    const outside = sources.flatMap((file) =>
      importsOf(file)
        .filter((specifier) =>
          specifier.startsWith('.')
            ? relative(root, resolve(dirname(file), specifier)).startsWith('..')
            : !specifier.startsWith('node:') && !builtinModules.includes(specifier) && !listed.has(packageOf(specifier)),
        )
        .map((specifier) => `${relative(root, file)}: ${specifier}`),
    );
    expect(sources.length).toBeGreaterThan(50);
    expect(outside).toEqual([]);
  });

  it('has no import circle between its modules', () => {
    const modules = sources.filter((file) => !file.endsWith('.test.ts'));
    const edges = new Map(
      modules.map((file) => [
        file,
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => `${resolve(dirname(file), specifier)}.ts`)
          .filter((target) => modules.includes(target)),
      ]),
    );
    const circles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        circles.push(
          path
            .slice(path.indexOf(file))
            .map((f) => relative(root, f))
            .join(' → '),
        );
        return;
      }
      state.set(file, 'visiting');
      for (const target of edges.get(file) ?? []) visit(target, [...path, target]);
      state.set(file, 'done');
    };
    for (const file of modules) visit(file, [file]);
    expect(circles).toEqual([]);
  });
});
