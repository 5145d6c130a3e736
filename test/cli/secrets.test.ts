import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cli, cliAsync, freshDb, ok, smallChat, tempDir, writeFile } from './support.js';

/**
 * The real CLI against a local server that answers every request 401 and echoes the key it got,
 * as some providers do: which key reached it, and whether any credential shows in what the CLI
 * printed.
 */
const OPENAI = 'sk-proj-openai0000secret1111';
const CONDENSE = 'condense-general-key-2222';
const VLLM = 'vllm-server-key-3333';
const AWS = 'aws-secret-never-send-4444';
const PLAIN = 'plainly-named-5555';
const PASSWORD = 'hunter2-in-url-6666';
const ALL_SECRETS = [OPENAI, CONDENSE, VLLM, AWS, PLAIN, PASSWORD];

interface Case {
  name: string;
  summarizer: string;
  env: Record<string, string>;
  extra?: string[];
  /** The base URL's userinfo, if the case puts one there. */
  userinfo?: string;
  /** The key the server must receive (null: no Authorization header; undefined: no request at all). */
  sent: string | null | undefined;
  stderr: RegExp;
}

const CASES: Case[] = [
  {
    name: 'openai: OPENAI_API_KEY is not sent to another host, and the failure says why',
    summarizer: 'openai:gpt-4o-mini',
    env: { OPENAI_API_KEY: OPENAI },
    sent: null,
    stderr: /OPENAI_API_KEY is sent only to https:\/\/api\.openai\.com.*--api-key-env OPENAI_API_KEY/,
  },
  {
    name: 'ollama with only OPENAI_API_KEY set sends no key',
    summarizer: 'ollama:llama3.1',
    env: { OPENAI_API_KEY: OPENAI },
    sent: null,
    stderr: /summarizer ollama:llama3\.1 at http:\/\/127\.0\.0\.1:\d+\/\w+\/v1 failed/,
  },
  {
    name: 'a made-up provider name reads no variable from it',
    summarizer: 'aws_secret_access:m',
    env: { AWS_SECRET_ACCESS_API_KEY: AWS, OPENAI_API_KEY: OPENAI },
    sent: null,
    stderr: /failed, nothing was written/,
  },
  {
    name: 'CONDENSE_API_KEY goes where the user points it; its echo is masked',
    summarizer: 'custom:m',
    env: { CONDENSE_API_KEY: CONDENSE, OPENAI_API_KEY: OPENAI },
    sent: CONDENSE,
    stderr: /Incorrect API key provided: \*\*\*/,
  },
  {
    name: 'vllm: its own key goes to the vLLM server the user named',
    summarizer: 'vllm:m',
    env: { VLLM_API_KEY: VLLM, OPENAI_API_KEY: OPENAI },
    sent: VLLM,
    stderr: /Bearer \*\*\*/,
  },
  {
    name: '--api-key-env sends a variable whose name does not look secret, and masks it',
    summarizer: 'custom:m',
    env: { MY_LLM: PLAIN, CONDENSE_API_KEY: CONDENSE },
    extra: ['--api-key-env', 'MY_LLM'],
    sent: PLAIN,
    stderr: /Incorrect API key provided: \*\*\*/,
  },
  {
    name: '--api-key-env OPENAI_API_KEY: the user sends the OpenAI key to this host on purpose',
    summarizer: 'openai:gpt-4o-mini',
    env: { OPENAI_API_KEY: OPENAI },
    extra: ['--api-key-env', 'OPENAI_API_KEY'],
    sent: OPENAI,
    stderr: /Incorrect API key provided: \*\*\*/,
  },
  {
    name: '--api-key-env naming an unset variable fails before any request',
    summarizer: 'custom:m',
    env: { OPENAI_API_KEY: OPENAI },
    extra: ['--api-key-env', 'NOT_SET_ANYWHERE'],
    sent: undefined,
    stderr: /^condense: --api-key-env NOT_SET_ANYWHERE: that environment variable is not set\n$/,
  },
  {
    name: 'a password in --base-url is refused, masked, and never sent',
    summarizer: 'ollama:m',
    env: { CONDENSE_API_KEY: CONDENSE },
    userinfo: `bob:${PASSWORD}`,
    sent: undefined,
    stderr: /^condense: --base-url must not hold credentials \(http:\/\/\*\*\*@127\.0\.0\.1:\d+\/\w+\/v1\)/,
  },
];

let server: Server;
let port = 0;
/** The Authorization header of each request, by the case folder of its URL. */
const received = new Map<string, string | null>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const auth = req.headers.authorization ?? null;
    received.set(req.url?.split('/')[1] ?? '', auth);
    const key = auth?.replace(/^Bearer /, '') ?? '';
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${key}. You sent: ${auth}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('no credential in anything the CLI prints; a key goes only where it belongs', () => {
  const dir = tempDir();
  const db = freshDb(dir);
  const results: CliResult[] = [];

  beforeAll(async () => {
    ok(cli(['import', writeFile(dir, 'chat.json', smallChat()), '--session', 'chat', '--db', db]));
    const runs = CASES.map((c, i) => {
      const base = `http://${c.userinfo ? `${c.userinfo}@` : ''}127.0.0.1:${port}/case${i}/v1`;
      const args = ['compact', 'chat', '--summarizer', c.summarizer, '--base-url', base];
      // PATH only, plus the case's variables: the caller's own keys must not take part.
      const env = { PATH: process.env.PATH ?? '', ...c.env };
      return cliAsync(
        [
          ...args,
          '--target-tokens',
          '200',
          '--keep-tokens',
          '0',
          '--max-retries',
          '0',
          ...(c.extra ?? []),
          '--db',
          db,
        ],
        60_000,
        env,
      );
    });
    results.push(...(await Promise.all(runs)));
  }, 120_000);

  CASES.forEach((c, i) => {
    it(c.name, () => {
      const r = results[i]!;
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(c.stderr);
      const printed = r.stdout + r.stderr;
      for (const secret of ALL_SECRETS) expect(printed).not.toContain(secret);
      const got = received.has(`case${i}`) ? received.get(`case${i}`) : undefined;
      expect(got).toBe(c.sent === null || c.sent === undefined ? c.sent : `Bearer ${c.sent}`);
    });
  });
});
