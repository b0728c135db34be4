// Which way imports may point under src/ (DESIGN: data flows one way; the mock never imports the
// client; a shared module never imports an area or a command back). A rule read from the import
// statements themselves holds for every file, including the ones written after it, where a review
// would have to remember it. Every import counts, type-only and dynamic ones too: each still makes
// one file depend on the other.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, ROOT, type Edge } from '../helpers/imports.js';

type Pair = readonly [from: string, to: string];

// ---- the mock's layers ------------------------------------------------------------------------

/**
 * The mock, bottom to top. A file imports its own layer or those below it, never one above, so a
 * layer can be read, tested and loaded without anything that sits on it.
 */
const MOCK_LAYERS: readonly { name: string; files: RegExp }[] = [
  {
    // What every area is built on: the database and its driver, the request kit and the rules of
    // its fields, decoding,
    // faults, the User-Agent rule, the job runner (and its Progress table), the shapes of upload
    // bytes, the area framework, the clock.
    name: 'mock core',
    files:
      /^src\/mock\/(db\/.+|area|clock|decode|faults|fields|file-bytes|jobs|kit|multipart-stream|time-zones|user-agent)\.ts$/,
  },
  // The school every area builds on: the shared records' tables and the only SQL that touches them
  // (accounts, users, courses, sections, enrollments).
  { name: 'school records', files: /^src\/mock\/school\/[^/]+\/(repo|schema)\.ts$/ },
  // An area's tables and the only SQL that touches them.
  { name: 'area repository', files: /^src\/mock\/areas\/[^/]+\/(repo|schema)\.ts$/ },
  // Questions that read several areas' repositories: finding records by path id, permissions, and
  // the permission questions many areas' handlers ask of a request (access.ts).
  { name: 'cross-area module', files: /^src\/mock\/areas\/(lookup|permissions|access)\.ts$/ },
  // How the school's records are shown (present.ts) and who may see and change them (policy.ts).
  { name: 'school behaviour', files: /^src\/mock\/school\/[^/]+\/(?!(repo|schema)\.ts$)[^/]+\.ts$/ },
  // An area's descriptor, handlers, seed and their helpers.
  { name: 'area behaviour', files: /^src\/mock\/areas\/[^/]+\/(?!(repo|schema)\.ts$)[^/]+\.ts$/ },
  // The list of all areas: the schema, the handler of each route, the presenters of the stream.
  { name: 'area registry', files: /^src\/mock\/areas\/index\.ts$/ },
  // The request pipeline, the runtime, the seed, the HTTP(S) server and its certificate, the generated school.
  { name: 'mock top', files: /^src\/mock\/(handler|runtime|seed|serve|tls|generate)\.ts$/ },
  // What the rest of lms imports of the mock: the build makes it a file of its own (dist/mock.cjs).
  { name: 'mock front door', files: /^src\/mock\/index\.ts$/ },
];

function mockLayer(file: string): number | undefined {
  const index = MOCK_LAYERS.findIndex((layer) => layer.files.test(file));
  return index < 0 ? undefined : index;
}

const isMockCore = (file: string) => mockLayer(file) === 0;

/**
 * A file of an area that holds handlers (a `Handler`, or the table of them). No other area imports
 * one: what areas share is the school (src/mock/school/), the cross-area modules, and an area's
 * repository or presenters, so a handler file is read, split or moved without another area's.
 */
const holdsHandlers = (file: string) =>
  /^src\/mock\/areas\/[^/]+\//.test(file) && /:\s*Handler\b|\bHandler>/.test(readFileSync(join(ROOT, file), 'utf8'));

/** The longest a file of handlers grows before it is split by topic. */
const HANDLER_FILE_LINES = 400;

const areaOf = (file: string) => /^src\/mock\/areas\/([^/]+)\//.exec(file)?.[1];

// ---- the command tree -------------------------------------------------------------------------

/**
 * The composition roots: the files outside src/commands/ that put the command tree together, and
 * the one module of it each may import (the registry of nouns, which loads each noun lazily).
 */
const COMMAND_COMPOSITION: readonly Pair[] = [['src/cli/program.ts', 'src/commands/index.ts']];

// ---- the house: folders ----------------------------------------------------------------------

/**
 * The folders of src/, bottom to top (`.` is the files directly under src/: errors, controls, …).
 * A file imports from its own folder or from folders below it, never above: the arrows of the drawn
 * house all point down, and no two folders import each other.
 */
const FOLDERS = [
  '.', // shared words: errors, exit codes, control characters, byte sizes, redaction
  'spec', // the API: routes as data, the spec's types
  'io', // the only writers, and the bounded reader of every input
  'config', // profiles, credentials, keychain, where files live
  'output', // the renderers and --jq
  'transport', // HTTP(S), proxies, trust, retries and pacing, the dry run's transport
  'client', // typed operations over a transport: encoding, paging, errors
  'audit', // the audit log of every write
  'auth', // OAuth2, token renewal
  'mock', // the mock instance (it never imports the client)
  'model', // the command model's kit: declarations, invocation, context, the error handler
  'bulk', // the bulk engine
  'apply', // lms apply
  'mcp', // lms mcp
  'commands', // one folder per noun
  'cli', // the command line: commander's tree, completions, man pages
] as const;

const folderOf = (file: string) => {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1] : '.';
};

// ---- the rules --------------------------------------------------------------------------------

interface Rule {
  name: string;
  /** Does the rule forbid this import? */
  forbids(from: string, to: string, kind: Edge['kind']): boolean;
}

const RULES: readonly Rule[] = [
  {
    name: 'the mock core imports no area and no school record (src/mock/areas/, src/mock/school/)',
    forbids: (from, to) => isMockCore(from) && /^src\/mock\/(areas|school)\//.test(to),
  },
  {
    name: 'a mock layer imports only its own layer and those below it',
    forbids: (from, to) => {
      const [a, b] = [mockLayer(from), mockLayer(to)];
      return a !== undefined && b !== undefined && b > a;
    },
  },
  {
    name: "an area imports no other area's handlers",
    forbids: (from, to) => areaOf(from) !== undefined && areaOf(from) !== areaOf(to) && holdsHandlers(to),
  },
  {
    name: 'only the composition root (src/cli/program.ts) imports src/commands/ from outside it, and only its registry',
    forbids: (from, to) =>
      to.startsWith('src/commands/') &&
      !from.startsWith('src/commands/') &&
      !COMMAND_COMPOSITION.some(([f, t]) => f === from && t === to),
  },
  {
    // The build bundles the mock apart from the CLI, from its front door: a file outside the mock that
    // loaded another of its modules would bundle a second mock into the CLI, with state of its own.
    name: 'outside the mock, only its front door (src/mock/index.ts) is loaded; its types may be read',
    forbids: (from, to, kind) =>
      !from.startsWith('src/mock/') &&
      to.startsWith('src/mock/') &&
      to !== 'src/mock/index.ts' &&
      kind !== 'import ' + 'type',
  },
  {
    // The resources' shapes are the spec's (src/spec/types), which both sides read.
    name: 'the mock never imports the client (src/client/)',
    forbids: (from, to) => from.startsWith('src/mock/') && to.startsWith('src/client/'),
  },
  {
    name:
      'the mock serves the API, not the CLI: it imports nothing of src/cli, src/commands, src/output, src/io, ' +
      'src/bulk or src/config',
    forbids: (from, to) => from.startsWith('src/mock/') && /^src\/(cli|commands|output|io|bulk|config)\//.test(to),
  },
];

const key = ([from, to]: Pair) => `${from} → ${to}`;

describe('import layers', () => {
  const { files, edges: imports, unreadable } = readTree();

  it('every import under src/ names a file the rules can follow', () => {
    expect(unreadable).toEqual([]);
    expect(imports.length).toBeGreaterThan(100);
  });

  it('every file of src/mock/ is in exactly one layer, and every layer holds files', () => {
    // A new file outside every pattern would escape the layer rules; in two, its layer would be a guess.
    const unplaced = files.filter(
      (f) => f.startsWith('src/mock/') && MOCK_LAYERS.filter((layer) => layer.files.test(f)).length !== 1,
    );
    expect(unplaced, 'put each of these files in one layer of MOCK_LAYERS').toEqual([]);
    expect(MOCK_LAYERS.filter((layer) => !files.some((f) => layer.files.test(f))).map((layer) => layer.name)).toEqual(
      [],
    );
  });

  it.each(RULES.map((rule) => [rule.name, rule] as const))('%s', (_name, rule) => {
    const broken = imports
      .filter(({ from, to, kind }) => rule.forbids(from, to, kind))
      .map(({ from, to, line }) => `${from}:${line} imports ${to}, breaking the rule: ${rule.name}`);
    expect(broken).toEqual([]);
  });

  it('every folder of src/ has its place in the house', () => {
    expect([...new Set(files.map(folderOf))].filter((f) => !(FOLDERS as readonly string[]).includes(f)).sort()).toEqual(
      [],
    );
  });

  it('no import between folders points up the house, so no two folders import each other', () => {
    const rank = (file: string) => (FOLDERS as readonly string[]).indexOf(folderOf(file));
    const up = imports
      .filter(({ from, to }) => rank(to) > rank(from))
      .map(({ from, to, line }) => `${from}:${line} imports ${to}, above it (${folderOf(to)} over ${folderOf(from)})`);
    expect(up).toEqual([]);
  });

  it(`no file of handlers is over ${HANDLER_FILE_LINES} lines`, () => {
    const handlerFiles = files.filter(holdsHandlers);
    expect(handlerFiles.length).toBeGreaterThan(10);
    const long = handlerFiles
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > HANDLER_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('each composition root still imports what it is allowed to (an allowance no longer used is deleted)', () => {
    for (const pair of COMMAND_COMPOSITION)
      expect(
        imports.some((i) => i.from === pair[0] && i.to === pair[1]),
        key(pair),
      ).toBe(true);
  });
});
