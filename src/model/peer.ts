import { createRequire } from 'node:module';

/**
 * Optional packages: condense installs without them, and the feature that needs one says which to
 * install instead of failing with Node's "Cannot find package".
 */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';
  constructor(
    readonly packageName: string,
    neededFor: string,
    options?: { cause?: unknown },
  ) {
    super(`${neededFor} needs the '${packageName}' package: npm install ${packageName}`, options);
  }
}

/** True when `error` says `name` itself (not something inside it) is not installed. */
export function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return new RegExp(`['"]${name.replace(/[/.]/g, '\\$&')}(['"/]|$)`).test(message ?? '');
}

/** `import(name)`, or a MissingPackageError naming it. */
export async function importPeer<T>(name: string, neededFor: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    throw isMissing(error, name) ? new MissingPackageError(name, neededFor, { cause: error }) : error;
  }
}

const require = createRequire(import.meta.url);

/** `require(specifier)` for a CommonJS build loaded synchronously, or a MissingPackageError naming `name`. */
export function requirePeer<T>(name: string, specifier: string, neededFor: string): T {
  try {
    return require(specifier) as T;
  } catch (error) {
    throw isMissing(error, name) ? new MissingPackageError(name, neededFor, { cause: error }) : error;
  }
}
