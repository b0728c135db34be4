// Every route of the route table × every kind of caller a school has: who gets past authorization
// (an answer other than 401, 403 or 404) and who is refused. The rows are keyed by route id, so a
// route added to the table without a row here fails the first test. A refused write must change
// nothing; a 5xx is never right.
//
// Each write runs on a database no earlier request changed (the seeded school restored from a copy
// whenever a write got through), so one role's successful delete cannot make the next role's request
// a 404. The school is seeded once; each restore copies its file.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAdmin } from '../../src/mock/areas/admins/repo.js';
import { createEntry, entryById } from '../../src/mock/areas/discussions/repo.js';
import { addLogin, addToken, createUser } from '../../src/mock/school/users/repo.js';
import { openMock, type MockRuntime } from '../../src/mock/runtime.js';
import { allRoutes, type RouteId } from '../../src/spec/routes.js';
import { freshMock, jsonChecked, MOCK_ENV } from '../helpers/mock-client.js';
import { ALL_ROLES, BIO_CONTENT, BIO_READERS, C, ROLES, ROUTE_ROWS, topic, type Role } from '../helpers/route-rows.js';

const routes = allRoutes();

const NOW = '2026-11-02T12:00:00.000Z';

/** The seeded school with its sub-account admin, written once to a file every restore copies. */
const workspace = mkdtempSync(join(tmpdir(), 'lms-role-matrix-'));
const template = join(workspace, 'school.db');
{
  const mock = freshMock();
  const id = createUser(mock.db, { name: 'Sia Subadmin', registered: true, now: NOW });
  addLogin(mock.db, { user: id, account: 1, uniqueId: 'subadmin', now: NOW });
  addToken(mock.db, { token: ROLES.subAdmin, user: id, purpose: 'subadmin', now: NOW });
  addAdmin(mock.db, { account: 2, user: id, role: 1, now: NOW });
  mock.db.exec(`VACUUM INTO '${template}'`);
  mock.db.close();
}
let restored: MockRuntime | undefined;
let copies = 0;
afterAll(async () => {
  await restored?.jobs.idle();
  restored?.db.close();
  rmSync(workspace, { recursive: true, force: true });
});

/**
 * On Node 20 the mock's SQLite (@photostructure/sqlite 1.x) cannot finalize a closed database's
 * prepared statements, so the file, its -wal and -shm stay open until the collector takes the
 * statements. A command closes its one database as it ends; this file closes about a thousand, so
 * it has the collector (vitest.config.ts starts the workers with --expose-gc) take them now and then.
 */
const collect = (globalThis as { gc?: () => void }).gc;

/** The school of this file again; the one before is closed once its background jobs have finished. */
async function restore(file: string): Promise<MockRuntime> {
  await restored?.jobs.idle();
  restored?.db.close();
  if (collect && copies % 32 === 31) {
    collect();
    // The driver finalizes what was collected on the event loop's next turn.
    await new Promise(setImmediate);
  }
  const path = join(workspace, `school-${++copies}.db`);
  copyFileSync(file, path);
  restored = jsonChecked(openMock(path, MOCK_ENV));
  return restored;
}

/** Keeps the school as it is now as a file to restore (`restore(file)`). */
async function keep(mock: MockRuntime, name: string): Promise<string> {
  await mock.jobs.idle();
  const file = join(workspace, `${name}.db`);
  mock.db.exec(`VACUUM INTO '${file}'`);
  return file;
}

const seededSchool = () => restore(template);

type Verdict = 'allowed' | 'refused' | `server error ${number}`;

function verdictOf(status: number): Verdict {
  if (status >= 500) return `server error ${status}`;
  return [401, 403, 404].includes(status) ? 'refused' : 'allowed';
}

/** The rows of the database that a refused write must leave alone (page views aside). */
function snapshot(mock: MockRuntime): string {
  const tables = (
    mock.db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' ` +
          `AND name <> 'page_views' ORDER BY name`,
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
  return tables.map((t) => `${t}:${JSON.stringify(mock.db.prepare(`SELECT * FROM "${t}"`).all())}`).join('\n');
}

/** Every write starts from the seeded school, so what a refused one must leave is this. */
const SEEDED = snapshot(await seededSchool());

describe('the role × route matrix', () => {
  it('has a row for every route of the table, and none for a route that does not exist', () => {
    const ids = routes.map((r) => r.id);
    expect(
      ids.filter((id) => !(id in ROUTE_ROWS)),
      'routes without a row',
    ).toEqual([]);
    expect(
      Object.keys(ROUTE_ROWS).filter((id) => !ids.includes(id as RouteId)),
      'rows without a route',
    ).toEqual([]);
  });

  const table = routes.map((r) => ({ id: r.id, method: r.method, ...ROUTE_ROWS[r.id] }));
  it.each(table)('$method $path ($id)', async ({ method, path, body, allow, notFoundWhenAllowed }) => {
    let mock = await seededSchool();
    const seen: Partial<Record<Role, Verdict>> = {};
    for (const role of ALL_ROLES) {
      const token = ROLES[role];
      const res = await mock.handler({
        method,
        url: `http://lms.mock${path}`,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      seen[role] = notFoundWhenAllowed && res.status === 404 ? 'allowed' : verdictOf(res.status);
      if (method === 'GET') continue;
      if (seen[role] === 'refused') expect(snapshot(mock), `${role}'s refused ${method} changed the data`).toBe(SEEDED);
      else mock = await seededSchool();
    }
    const expected = Object.fromEntries(ALL_ROLES.map((r) => [r, allow.includes(r) ? 'allowed' : 'refused']));
    expect(seen).toEqual(expected);
  });
});

/**
 * Messaging BIO-101 as a whole, beside the row above that messages one person: 201 for whoever may
 * message the entire class there (its teacher and TA, the admins above it), the API's 400
 * `restricted by role` for everyone else, with nothing sent.
 */
describe('the role matrix of messaging a class as a whole (conversations.create)', () => {
  const CLASS_SENDERS: Role[] = ['ta', 'teacher', 'subAdmin', 'admin'];
  it.each(['course_1', 'course_1_students', 'section_1'])('to %s', async (to) => {
    const seen: Partial<Record<Role, number>> = {};
    for (const role of ALL_ROLES) {
      const mock = await seededSchool();
      const token = ROLES[role];
      const res = await mock.handler({
        method: 'POST',
        url: 'http://lms.mock/api/v1/conversations',
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
        body: JSON.stringify({ recipients: [to], body: 'To everyone', group_conversation: true }),
      });
      seen[role] = res.status;
      if (res.status !== 201) expect(snapshot(mock), `${role}'s refused message changed the data`).toBe(SEEDED);
    }
    expect(seen).toEqual(
      Object.fromEntries(ALL_ROLES.map((r) => [r, r === 'anonymous' ? 401 : CLASS_SENDERS.includes(r) ? 201 : 400])),
    );
  });
});

/**
 * A topic not yet posted (seeded topic 6, delayed) and an announcement not yet posted, each with an
 * entry and a reply (posted before it was delayed again): who moderates BIO-101 reads and acts on
 * everything; a student, an observer and anyone else who does not moderate it gets none of what was
 * posted in it, nor read state or a subscription. The delayed topic itself answers them (without its
 * message); the delayed announcement does not exist for them until it posts.
 */
describe('the role × route matrix of a topic not yet posted', () => {
  const DELAYED_TOPIC = 6;
  const LATER = '2027-01-11T15:00:00.000Z';

  /** The school with the delayed announcement and an entry and a reply in each, set up once and restored. */
  let announcement = 0;
  let delayed = '';
  let DELAYED_SEEDED = '';
  beforeAll(async () => {
    const mock = await seededSchool();
    const res = await mock.handler({
      method: 'POST',
      url: `http://lms.mock/api/v1/${C}/discussion_topics`,
      headers: { authorization: `Bearer ${ROLES.teacher}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Exam room change',
        message: 'Room 4B',
        is_announcement: true,
        delayed_post_at: LATER,
      }),
    });
    announcement = (res.json as { id: number }).id;
    for (const t of [DELAYED_TOPIC, announcement]) {
      const entry = createEntry(mock.db, { topic: t, user: 7, message: 'Posted before the delay', now: NOW });
      createEntry(mock.db, { topic: t, user: 3, parent: entryById(mock.db, entry), message: 'A reply', now: NOW });
    }
    delayed = await keep(mock, 'delayed');
    DELAYED_SEEDED = snapshot(await restore(delayed));
  });

  const entryOf = (mock: MockRuntime, t: number) =>
    (mock.db.prepare(`SELECT min(id) AS id FROM discussion_entries WHERE topic_id = ?`).get(t) as { id: number }).id;

  /** Each route on the topic `t` (entry paths use its first entry). */
  const routesOn = (t: 'topic' | 'announcement') =>
    [
      { id: 'getTopic', method: 'GET', rest: '', allow: t === 'topic' ? BIO_READERS : BIO_CONTENT },
      { id: 'listEntries', method: 'GET', rest: '/entries' },
      { id: 'viewTopic', method: 'GET', rest: '/view' },
      { id: 'viewTopic', method: 'GET', rest: '/view?include_new_entries=1' },
      { id: 'listReplies', method: 'GET', rest: '/entries/:entry/replies' },
      { id: 'entryList', method: 'GET', rest: '/entry_list?ids[]=:entry' },
      { id: 'markTopicRead', method: 'PUT', rest: '/read' },
      { id: 'markTopicUnread', method: 'DELETE', rest: '/read' },
      { id: 'markAllRead', method: 'PUT', rest: '/read_all' },
      { id: 'markAllUnread', method: 'DELETE', rest: '/read_all' },
      { id: 'markEntryRead', method: 'PUT', rest: '/entries/:entry/read' },
      { id: 'markEntryUnread', method: 'DELETE', rest: '/entries/:entry/read' },
      { id: 'subscribe', method: 'PUT', rest: '/subscribed' },
      { id: 'unsubscribe', method: 'DELETE', rest: '/subscribed' },
      { id: 'createEntry', method: 'POST', rest: '/entries', body: { message: 'Early' } },
      { id: 'createReply', method: 'POST', rest: '/entries/:entry/replies', body: { message: 'Early' } },
    ].map((r) => ({ ...r, t, allow: r.allow ?? BIO_CONTENT }));

  it.each([...routesOn('topic'), ...routesOn('announcement')])(
    '$method the delayed $t: $rest ($id)',
    async ({ t, method, rest, body, allow }) => {
      let mock = await restore(delayed);
      const seen: Partial<Record<Role, Verdict>> = {};
      for (const role of ALL_ROLES) {
        const id = t === 'topic' ? DELAYED_TOPIC : announcement;
        const path = topic(C, id, rest.replace(':entry', String(entryOf(mock, id))));
        const token = ROLES[role];
        const res = await mock.handler({
          method: method as 'GET' | 'PUT' | 'POST' | 'DELETE',
          url: `http://lms.mock${path}`,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        seen[role] = verdictOf(res.status);
        if (method === 'GET') continue;
        if (seen[role] === 'refused')
          expect(snapshot(mock), `${role}'s refused ${method} changed the data`).toBe(DELAYED_SEEDED);
        else mock = await restore(delayed);
      }
      expect(seen).toEqual(Object.fromEntries(ALL_ROLES.map((r) => [r, allow.includes(r) ? 'allowed' : 'refused'])));
    },
  );

  it.each(['', '?search_term=Midterm'])(
    'GET the delayed topic (and the list%s): its counts are shown to those its entries are shown to',
    async (query) => {
      const mock = await restore(delayed);
      const seen: Partial<Record<Role, unknown>> = {};
      for (const role of BIO_READERS) {
        const token = ROLES[role]!;
        const headers = { authorization: `Bearer ${token}` };
        const one = await mock.handler({
          method: 'GET',
          url: `http://lms.mock${topic(C, DELAYED_TOPIC, '')}`,
          headers,
        });
        const list = await mock.handler({
          method: 'GET',
          url: `http://lms.mock/api/v1/${C}/discussion_topics${query}`,
          headers,
        });
        const listed = (list.json as Record<string, unknown>[]).find((t) => t.id === DELAYED_TOPIC)!;
        const shown = (json: Record<string, unknown>) => [
          json.discussion_subentry_count,
          json.unread_count,
          json.last_reply_at !== null,
        ];
        expect(shown(listed), role).toEqual(shown(one.json as Record<string, unknown>));
        seen[role] = shown(one.json as Record<string, unknown>)[0];
      }
      expect(seen).toEqual(Object.fromEntries(BIO_READERS.map((r) => [r, BIO_CONTENT.includes(r) ? 2 : 0])));
    },
  );
});
