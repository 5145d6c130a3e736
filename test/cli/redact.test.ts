import { describe, expect, it } from 'vitest';
import { chooseApiKey } from '../../src/cli/api-key.js';
import { redact, secretValues } from '../../src/cli/redact.js';

describe('redact', () => {
  const cases: Array<[string, string, string[]?]> = [
    ['fetch failed for http://bob:pa55word@host:8080/v1/x', 'fetch failed for http://***@host:8080/v1/x'],
    ['see https://token@example.com/', 'see https://***@example.com/'],
    ['header was Bearer abc.DEF-123_x=', 'header was Bearer ***'],
    ['auth: Basic Ym9iOnBhc3M=', 'auth: Basic ***'],
    ['Incorrect API key provided: sk-proj-AbC123xyz7890.', 'Incorrect API key provided: ***.'],
    ['anthropic sk-ant-api03-abcdefghij and google AIzaSyA1234567890abc', 'anthropic *** and google ***'],
    ['GET /v1/models?key=AIzaXYZ&alt=json', 'GET /v1/models?key=***&alt=json'],
    ['the key my-own-secret-value was refused', 'the key *** was refused', ['my-own-secret-value']],
    // The longer of two overlapping secrets is masked whole.
    ['k=abcdefgh-longer', 'k=***', ['abcdefgh', 'abcdefgh-longer']],
  ];
  for (const [input, expected, secrets] of cases) {
    it(`masks ${JSON.stringify(input)}`, () => {
      expect(redact(input, secrets)).toBe(expected);
    });
  }

  it('leaves ordinary messages alone, short "secrets" included', () => {
    const text =
      "no session 'big' in .condense/condense.db (list them with: condense sessions); http://127.0.0.1:9/v1";
    expect(redact(text, ['db', 'true'])).toBe(text);
  });

  it('treats variables named like credentials as secrets', () => {
    expect(
      secretValues({
        OPENAI_API_KEY: 'k1',
        GH_TOKEN: 't',
        DB_PASSWORD: 'p',
        HOME: '/root',
        PATH: '/bin',
      }).sort(),
    ).toEqual(['k1', 'p', 't']);
  });
});

describe('chooseApiKey: a key goes only where it belongs', () => {
  const openaiUrl = new URL('https://api.openai.com/v1');
  const local = new URL('http://127.0.0.1:8000/v1');

  it('OPENAI_API_KEY to api.openai.com only', () => {
    const env = { OPENAI_API_KEY: 'sk-o' };
    expect(chooseApiKey('openai', openaiUrl, env)).toEqual({ key: 'sk-o', from: 'OPENAI_API_KEY' });
    expect(chooseApiKey('openai', new URL('http://api.openai.com/v1'), env).key).toBeUndefined();
    expect(chooseApiKey('openai', local, env)).toEqual({
      withheld:
        'OPENAI_API_KEY is sent only to https://api.openai.com, not to http://127.0.0.1:8000; to send it there, pass --api-key-env OPENAI_API_KEY',
    });
    expect(chooseApiKey('ollama', local, env)).toEqual({});
  });

  it('a local server provider gets its own variable, then CONDENSE_API_KEY', () => {
    expect(chooseApiKey('vllm', local, { VLLM_API_KEY: 'v', CONDENSE_API_KEY: 'c' })).toEqual({
      key: 'v',
      from: 'VLLM_API_KEY',
    });
    expect(chooseApiKey('vllm', local, { CONDENSE_API_KEY: 'c', OPENAI_API_KEY: 'o' })).toEqual({
      key: 'c',
      from: 'CONDENSE_API_KEY',
    });
  });

  it('names outside the allow-list read no variable of their own', () => {
    const env = { AWS_SECRET_ACCESS_API_KEY: 'aws', CONSTRUCTOR_API_KEY: 'x', TOSTRING_API_KEY: 'y' };
    for (const name of ['aws_secret_access', 'constructor', 'toString', '__proto__'])
      expect(chooseApiKey(name, local, env)).toEqual({});
  });

  it('--api-key-env wins, and must name a set variable', () => {
    const env = { MY_KEY: 'm', VLLM_API_KEY: 'v' };
    expect(chooseApiKey('vllm', local, env, 'MY_KEY')).toEqual({ key: 'm', from: 'MY_KEY' });
    expect(() => chooseApiKey('vllm', local, env, 'UNSET')).toThrow(
      '--api-key-env UNSET: that environment variable is not set',
    );
    expect(() => chooseApiKey('vllm', local, env, 'not a name')).toThrow(
      "--api-key-env takes the name of an environment variable, got 'not a name'",
    );
  });
});
