import { describe, expect, it } from 'vitest';
import { importPeer, isMissing, MissingPackageError, requirePeer } from '../../src/model/peer.js';

describe('optional packages', () => {
  it('a missing one is named with the command that installs it', async () => {
    const error = await importPeer('condense-no-such-package', 'condense/example').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPackageError);
    expect((error as Error).message).toBe(
      "condense/example needs the 'condense-no-such-package' package: npm install condense-no-such-package",
    );
    expect(() =>
      requirePeer('condense-no-such-package', 'condense-no-such-package/sub', "estimator 'exact'"),
    ).toThrow("estimator 'exact' needs the 'condense-no-such-package' package");
  });

  it('one that is there loads; a missing module inside another package is not taken for it', async () => {
    expect(await importPeer<{ parse: unknown }>('yaml', 'x')).toHaveProperty('parse');
    const inner = Object.assign(
      new Error("Cannot find package 'other' imported from /x/node_modules/pg/lib/a.js"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );
    expect(isMissing(inner, 'pg')).toBe(false);
    expect(
      isMissing(
        Object.assign(new Error("Cannot find package 'pg' imported from /a.js"), {
          code: 'ERR_MODULE_NOT_FOUND',
        }),
        'pg',
      ),
    ).toBe(true);
  });
});
