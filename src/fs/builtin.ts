import { createRequire } from 'node:module';

/**
 * A Node built-in module loaded when first needed, for modules whose use is rare (child_process
 * for `--run`, crypto for the .bin's hashed blob groups): loaded with the code that imports them,
 * they cost every run their load (child_process brings streams, net and dgram: 2–3 ms of each
 * `ovir convert`; crypto ~2 ms). `process.getBuiltinModule` from Node 20.16, else `require`.
 */
export function builtin<T>(id: `node:${string}`): T {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (get ? get(id) : (requireHere ??= createRequire(import.meta.url))(id)) as T;
}

let requireHere: NodeJS.Require | undefined;
