// Pages and modules in an apply file: a module's items name the file's pages, assignments, topics and
// quizzes by key; made once, matched again with no write, changed an item at a time, pruned when asked,
// and exported back to a file that applies alike.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { counted } from './helpers.js';

const FILE = `courses:
  - sis_course_id: GEO-1
    name: Geology
    account: sis_account_id:MSU
    assignments:
      - { key: map, name: Field map, points_possible: 10, published: true }
    topics:
      - { key: rocks, title: Favourite rocks, message: "<p>Tell us</p>", published: true }
    pages:
      - { key: syllabus, title: Syllabus, body: "<p>Rocks.</p>", published: true, front_page: true }
      - { key: notes, title: Week 1 notes, body: "<p>Igneous</p>", published: true, editing_roles: teachers }
      - { key: draft, title: Draft, body: "<p>Soon</p>" }
    modules:
      - key: week1
        name: "Week 1: Rocks"
        published: true
        items:
          - { type: SubHeader, title: Start here }
          - { page: notes, completion_requirement: must_view }
          - { assignment: map, completion_requirement: must_submit, indent: 1 }
          - { topic: rocks, completion_requirement: must_contribute }
          - { type: ExternalUrl, title: USGS, external_url: "https://www.usgs.gov/" }
      - key: week2
        name: "Week 2: Minerals"
        require_sequential_progress: true
        prerequisites: [week1]
        items:
          - { page: draft, title: Coming soon }
`;

const START = '          - { type: SubHeader, title: Start here }\n';
const MAP = '          - { assignment: map, completion_requirement: must_view }\n';
const TOPIC = '          - { topic: rocks, completion_requirement: must_contribute }\n';
const LINK = '          - { type: ExternalUrl, title: USGS, external_url: "https://www.usgs.gov/" }\n';

const said = (w: { method: string; url: string }) => `${w.method} ${new URL(w.url).pathname}`;

const moduleWrites = (s: ReturnType<typeof counted>) =>
  s.writes().filter((r) => new URL(r.url).pathname.includes('/modules'));

interface Item {
  id: number;
  type: string;
  title: string;
  indent: number;
  position: number;
  completion_requirement?: { type: string };
}
interface Module {
  id: number;
  name: string;
  position: number;
  published: boolean;
  prerequisite_module_ids: number[];
  require_sequential_progress: boolean;
  items: Item[];
}

async function modulesOf(s: ReturnType<typeof counted>, course: string): Promise<Module[]> {
  const r = await s.run(['modules', 'list', '--course', course, '--items', '-o', 'json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Module[];
}

describe('pages and modules in lms apply', () => {
  it('makes the pages, then the modules with their items, and a second run sends no write', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const modules = await modulesOf(s, 'sis_course_id:GEO-1');
    expect(modules.map((m) => m.name)).toEqual(['Week 1: Rocks', 'Week 2: Minerals']);
    const [week1, week2] = modules;
    expect(week1.published).toBe(true);
    expect(week1.items.map((i) => [i.type, i.title, i.indent, i.completion_requirement?.type])).toEqual([
      ['SubHeader', 'Start here', 0, undefined],
      ['Page', 'Week 1 notes', 0, 'must_view'],
      ['Assignment', 'Field map', 1, 'must_submit'],
      ['Discussion', 'Favourite rocks', 0, 'must_contribute'],
      ['ExternalUrl', 'USGS', 0, undefined],
    ]);
    expect(week2).toMatchObject({ prerequisite_module_ids: [week1.id], require_sequential_progress: true });
    expect(week2.items.map((i) => [i.type, i.title])).toEqual([['Page', 'Coming soon']]);
    const front = await s.run(['pages', 'front', '--course', 'sis_course_id:GEO-1', '-o', 'json']);
    expect(JSON.parse(front.stdout)).toMatchObject({ title: 'Syllabus', body: '<p>Rocks.</p>', published: true });

    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).changes).toBe(false);
    expect(s.writes().length).toBe(before);
  });

  it('a changed item is one update of that item; a new one an add at its place; a dropped one a removal', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const [week1] = await modulesOf(s, 'sis_course_id:GEO-1');
    const map = week1.items[2];
    const items = `/api/v1/courses/sis_course_id:GEO-1/modules/${week1.id}/items`;

    s.file(
      'c.yaml',
      FILE.replace('completion_requirement: must_submit, indent: 1', 'completion_requirement: must_view'),
    );
    const plan = await s.run(['diff', '-f', path], { tty: true });
    expect(plan.stdout).toContain('items[2].indent');
    expect(plan.stdout).toContain('items[2].completion_requirement');
    let before = moduleWrites(s).length;
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    expect(moduleWrites(s).slice(before).map(said)).toEqual([`PUT ${items}/${map.id}`]);
    let now = (await modulesOf(s, 'sis_course_id:GEO-1'))[0];
    expect(now.items[2]).toMatchObject({ id: map.id, indent: 0, completion_requirement: { type: 'must_view' } });

    // A header first, the link dropped, the topic moved before the assignment: one add, one removal, one move.
    s.file(
      'c.yaml',
      FILE.replace('completion_requirement: must_submit, indent: 1', 'completion_requirement: must_view')
        .replace(START, `          - { type: SubHeader, title: Hello }\n${START}`)
        .replace(LINK, '')
        .replace(`${MAP}${TOPIC}`, `${TOPIC}${MAP}`),
    );
    // The dropped item is deleted with its students' progress: asked about as a deletion is.
    const asked = await s.run(['diff', '-f', path], { tty: true });
    expect(asked.stdout).toContain('[destroys: deletes an item]');
    before = moduleWrites(s).length;
    const unasked = await s.run(['apply', '-f', path]);
    expect(unasked.exitCode).toBe(2);
    expect(unasked.stderr).toMatch(/--yes/);
    expect(moduleWrites(s).length).toBe(before);
    expect((await modulesOf(s, 'sis_course_id:GEO-1'))[0].items.map((i) => i.id)).toEqual(week1.items.map((i) => i.id));
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = moduleWrites(s).slice(before).map(said);
    expect(sent.filter((w) => w.startsWith('DELETE'))).toEqual([`DELETE ${items}/${week1.items[4].id}`]);
    expect(sent.filter((w) => w.startsWith('POST'))).toEqual([`POST ${items}`]);
    expect(sent.filter((w) => w.startsWith('PUT'))).toHaveLength(1);
    now = (await modulesOf(s, 'sis_course_id:GEO-1'))[0];
    expect(now.items.map((i) => i.title)).toEqual([
      'Hello',
      'Start here',
      'Week 1 notes',
      'Favourite rocks',
      'Field map',
    ]);
    // The items kept are the same items, not made again.
    expect(now.items.slice(1).map((i) => i.id)).toEqual([0, 1, 3, 2].map((i) => week1.items[i].id));
    const again = await s.run(['apply', '-f', path, '--yes'], { tty: true });
    expect(again.stdout).toContain('No changes');
  });

  it('an item both changed and out of order is one write; a renamed page keeps its item', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const [week1] = await modulesOf(s, 'sis_course_id:GEO-1');
    const map = '          - { assignment: map, completion_requirement: must_submit, indent: 1 }\n';
    s.file('c.yaml', FILE.replace(`${map}${TOPIC}`, `${TOPIC}          - { assignment: map, indent: 2 }\n`));
    let before = moduleWrites(s).length;
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const items = `/api/v1/courses/sis_course_id:GEO-1/modules/${week1.id}/items`;
    expect(moduleWrites(s).slice(before).map(said)).toEqual([`PUT ${items}/${week1.items[2].id}`]);
    const now = (await modulesOf(s, 'sis_course_id:GEO-1'))[0];
    expect(now.items.map((i) => [i.title, i.indent, i.completion_requirement?.type])).toEqual([
      ['Start here', 0, undefined],
      ['Week 1 notes', 0, 'must_view'],
      ['Favourite rocks', 0, 'must_contribute'],
      ['Field map', 2, undefined],
      ['USGS', 0, undefined],
    ]);

    // The page's slug moves with its title; its item is the same item.
    s.file('c.yaml', FILE.replace('title: Week 1 notes', 'title: Igneous rocks'));
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const renamed = (await modulesOf(s, 'sis_course_id:GEO-1'))[0];
    expect(renamed.items.filter((i) => i.type === 'Page').map((i) => i.id)).toEqual([week1.items[1].id]);
    before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes'], { tty: true });
    expect(again.stdout).toContain('No changes');
    expect(s.writes().length).toBe(before);
  });

  it(
    "an item's published is made, compared, exported " + "when not as made, and follows its module's publishing",
    async () => {
      const s = counted();
      const file = FILE.replace(
        '{ type: SubHeader, title: Start here }',
        '{ type: SubHeader, title: Start here, published: true }',
      )
        .replace(
          '        require_sequential_progress: true\n',
          '        require_sequential_progress: true\n        published: true\n',
        )
        .replace('{ page: draft, title: Coming soon }', '{ page: draft, title: Coming soon, published: false }');
      const path = s.file('c.yaml', file);
      const r = await s.run(['apply', '-f', path, '--yes']);
      expect(r.exitCode, r.stderr).toBe(0);
      const [week1, week2] = await modulesOf(s, 'sis_course_id:GEO-1');
      expect(week1.items.map((i) => (i as Item & { published: boolean }).published)).toEqual([
        true,
        true,
        true,
        true,
        false,
      ]);
      expect(week2.published).toBe(true);
      expect((week2.items[0] as Item & { published: boolean }).published).toBe(false);
      const before = s.writes().length;
      expect((await s.run(['apply', '-f', path, '--yes'], { tty: true })).stdout).toContain('No changes');
      expect(s.writes().length).toBe(before);

      const out = join(s.dir, 'out.yaml');
      const include = ['--include', 'assignments,topics,pages,modules'];
      expect((await s.run(['export', 'course', 'sis_course_id:GEO-1', ...include, '--out', out])).exitCode).toBe(0);
      const modules = (parse(readFileSync(out, 'utf8')) as { courses: { modules: Module[] }[] }).courses[0]!.modules;
      expect(modules[0]!.items[0]).toEqual({ type: 'SubHeader', title: 'Start here', published: true });
      expect(modules[0]!.items.filter((i) => 'published' in i)).toHaveLength(1);
      expect(modules[1]!.items).toEqual([{ page: 'draft', title: 'Coming soon' }]);

      // Unpublishing the module unpublishes its items; the header the file keeps published is published again.
      s.file(
        'c.yaml',
        file.replace(
          '        published: true\n        items:\n          - { type: SubHeader',
          '        published: false\n        items:\n          - { type: SubHeader',
        ),
      );
      const plan = await s.run(['diff', '-f', path], { tty: true });
      // The header is written again after the module's unpublishing unpublishes it.
      expect(plan.stdout).toMatch(/\n {6}published: true → false\n/);
      expect(plan.stdout).toMatch(/items\[0\]\.published: false → true/);
      expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
      const [now] = await modulesOf(s, 'sis_course_id:GEO-1');
      expect(now.published).toBe(false);
      expect(now.items.map((i) => (i as Item & { published: boolean }).published)).toEqual([
        true,
        false,
        false,
        false,
        false,
      ]);
      const after = s.writes().length;
      expect((await s.run(['apply', '-f', path, '--yes'], { tty: true })).stdout).toContain('No changes');
      expect(s.writes().length).toBe(after);
    },
  );

  it('a position past the last module is the last, as the API places it, and a re-run writes nothing', async () => {
    const s = counted();
    // Placed after week 2, week 1 cannot be its prerequisite (a prerequisite is a module before it).
    const placed = FILE.replace('"Week 1: Rocks"\n', '"Week 1: Rocks"\n        position: 10\n').replace(
      '        prerequisites: [week1]\n',
      '',
    );
    const path = s.file('c.yaml', placed);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    expect((await modulesOf(s, 'sis_course_id:GEO-1')).map((m) => [m.name, m.position])).toEqual([
      ['Week 2: Minerals', 1],
      ['Week 1: Rocks', 2],
    ]);
    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).changes, again.stdout).toBe(false);
    expect(s.writes().length).toBe(before);
  });

  const placing = (...modules: [key: string, position?: number, prerequisite?: string][]) =>
    'courses:\n  - sis_course_id: GEO-1\n    name: Geology\n    account: sis_account_id:MSU\n    modules:\n' +
    modules
      .map(
        ([key, position, pre]) =>
          `      - { key: ${key}, name: "Module ${key}"${position ? `, position: ${position}` : ''}` +
          `${pre ? `, prerequisites: [${pre}]` : ''} }\n`,
      )
      .join('');

  it.each([
    ['two modules at one place', placing(['a', 1], ['b', 1]), 'position 1 is also module "a"\'s'],
    [
      'a prerequisite placed after the module',
      placing(['a', 3], ['b', 2, 'a']),
      'prerequisites "a" is placed at position 3, not before this module\'s 2',
    ],
    ['a prerequisite of the first module', placing(['a'], ['b', 1, 'a']), 'cannot come before a module at position 1'],
  ])('refuses %s before sending anything: the positions would fight on every run', async (_, file, message) => {
    const s = counted();
    const r = await s.run(['apply', '-f', s.file('c.yaml', file), '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/c\.yaml:7 courses\[0\]\.modules\[1\]/);
    expect(s.writes()).toEqual([]);
  });

  it('a prerequisite the API drops, placed after its module, is a failure, not a module made as asked', async () => {
    const s = counted();
    // Made in the file's order, b goes to place 2 before c: the API keeps no prerequisite after a module.
    const path = s.file('c.yaml', placing(['a'], ['c'], ['b', 2, 'c']));
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('create module b: failed: the API did not keep prerequisite "c"');
    const modules = await modulesOf(s, 'sis_course_id:GEO-1');
    expect(modules.map((m) => [m.name, m.prerequisite_module_ids])).toEqual([
      ['Module a', []],
      ['Module b', []],
      ['Module c', []],
    ]);
  });

  it('modules placed past the end take the last places in order, keep their prerequisites, and settle', async () => {
    const s = counted();
    const path = s.file('c.yaml', placing(['a', 5], ['b', 6, 'a']));
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const [a, b] = await modulesOf(s, 'sis_course_id:GEO-1');
    expect([a.name, a.position, b.name, b.position]).toEqual(['Module a', 1, 'Module b', 2]);
    expect(b.prerequisite_module_ids).toEqual([a.id]);
    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes']);
    expect(JSON.parse(again.stdout).changes, again.stdout).toBe(false);
    expect(s.writes().length).toBe(before);
  });

  it('places modules after --prune removes others, so one run puts each where the file says', async () => {
    const s = counted();
    expect((await s.run(['apply', '-f', s.file('a.yaml', placing(['x'], ['y'])), '--yes'])).exitCode).toBe(0);
    const path = s.file('c.yaml', placing(['a', 2], ['b']));
    expect((await s.run(['apply', '-f', path, '--prune', '--yes'])).exitCode).toBe(0);
    expect((await modulesOf(s, 'sis_course_id:GEO-1')).map((m) => [m.name, m.position])).toEqual([
      ['Module b', 1],
      ['Module a', 2],
    ]);
    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--prune', '--yes']);
    expect(JSON.parse(again.stdout).changes, again.stdout).toBe(false);
    expect(s.writes().length).toBe(before);
  });

  it('puts back a module the file places that a new module moved down, in the same run', async () => {
    const s = counted();
    expect((await s.run(['apply', '-f', s.file('a.yaml', placing(['a'], ['b', 2])), '--yes'])).exitCode).toBe(0);
    const path = s.file('c.yaml', placing(['a'], ['b', 2], ['c', 1]));
    const plan = await s.run(['diff', '-f', path, '-o', 'json']);
    expect(JSON.parse(plan.stdout).summary).toMatchObject({ create: 1 });
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    expect((await modulesOf(s, 'sis_course_id:GEO-1')).map((m) => [m.name, m.position])).toEqual([
      ['Module c', 1],
      ['Module b', 2],
      ['Module a', 3],
    ]);
    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes']);
    expect(JSON.parse(again.stdout).changes, again.stdout).toBe(false);
    expect(s.writes().length).toBe(before);
  });

  it(
    'a module whose prerequisite its placing moves after it ' +
      'fails, and one whose prerequisite was not made is not made either, until a run makes both in order',
    async () => {
      const s = counted();
      const moved = await s.run([
        'apply',
        '-f',
        s.file('c.yaml', placing(['a', 3], ['b', undefined, 'a'], ['c'])),
        '--yes',
      ]);
      expect(moved.exitCode).toBe(1);
      expect(moved.stderr).toContain(
        'create module b: failed: placed where the file says, it comes before prerequisite "a"',
      );
      const t = counted();
      const long = placing(['a'], ['b', undefined, 'a']).replace('"Module a"', `"${'x'.repeat(300)}"`);
      const unmade = await t.run(['apply', '-f', t.file('c.yaml', long), '--yes']);
      expect(unmade.exitCode).toBe(1);
      expect(unmade.stderr).toContain('create module b: not done: module a was not created');
      // Made without its prerequisite, b would stand first, where the API keeps no prerequisite of it.
      expect(await modulesOf(t, 'sis_course_id:GEO-1')).toEqual([]);
      const fixed = await t.run(['apply', '-f', t.file('c.yaml', placing(['a'], ['b', undefined, 'a'])), '--yes']);
      expect(fixed.exitCode, fixed.stderr).toBe(0);
      expect((await modulesOf(t, 'sis_course_id:GEO-1')).map((m) => [m.name, m.prerequisite_module_ids])).toEqual([
        ['Module a', []],
        ['Module b', [(await modulesOf(t, 'sis_course_id:GEO-1'))[0].id]],
      ]);
    },
  );

  it('refuses notify_of_update, which is sent with a write and never answered, so never settles', async () => {
    const s = counted();
    const path = s.file(
      'c.yaml',
      FILE.replace('editing_roles: teachers }', 'editing_roles: teachers, ' + 'notify_of_update: true }'),
    );
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown field "notify_of_update" for a page');
    expect(s.writes()).toEqual([]);
  });

  it('--prune deletes a module and a page the file dropped, but keeps the front page and says why', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const week2 = FILE.slice(FILE.indexOf('      - key: week2'));
    s.file(
      'c.yaml',
      FILE.replace(week2, '')
        .replace(
          '      - { key: syllabus, title: Syllabus, body: "<p>Rocks.</p>", published: true, front_page: true }\n',
          '',
        )
        .replace('      - { key: draft, title: Draft, body: "<p>Soon</p>" }\n', ''),
    );
    const plan = await s.run(['diff', '-f', path, '--prune'], { tty: true });
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`kept (--prune): 1 page: "Syllabus" is the course's front page`);
    expect(plan.stdout).toMatch(/- module Week 2: Minerals \(id \d+\)/);
    expect(plan.stdout).toMatch(/- page Draft \(id \d+\)/);
    expect((await s.run(['apply', '-f', path, '--prune'])).exitCode).toBe(2);
    const r = await s.run(['apply', '-f', path, '--prune', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await modulesOf(s, 'sis_course_id:GEO-1')).map((m) => m.name)).toEqual(['Week 1: Rocks']);
    const pages = await s.run(['pages', 'list', '--course', 'sis_course_id:GEO-1', '-o', 'json']);
    expect((JSON.parse(pages.stdout) as { title: string }[]).map((p) => p.title).sort()).toEqual([
      'Syllabus',
      'Week 1 notes',
    ]);
    const again = await s.run(['apply', '-f', path, '--prune', '--yes'], { tty: true });
    expect(again.stdout).toContain('No changes');
  });

  it(
    'an exported file, its first module pruned, applies ' + 'with no write again: the list order is the position',
    async () => {
      const s = counted();
      const three = `courses:
  - sis_course_id: GEO-1
    name: Geology
    account: sis_account_id:MSU
    modules:
      - { key: a, name: Alpha }
      - { key: b, name: Beta }
      - { key: c, name: Gamma }
`;
      expect((await s.run(['apply', '-f', s.file('c.yaml', three), '--yes'])).exitCode).toBe(0);
      const out = join(s.dir, 'out.yaml');
      expect(
        (await s.run(['export', 'course', 'sis_course_id:GEO-1', '--include', 'modules', '--out', out])).exitCode,
      ).toBe(0);
      const exported = parse(readFileSync(out, 'utf8')) as { courses: { modules: Record<string, unknown>[] }[] };
      expect(exported.courses[0]!.modules.map((m) => [m.key, m.position])).toEqual([
        ['a', undefined],
        ['b', undefined],
        ['c', undefined],
      ]);
      exported.courses[0]!.modules.shift();
      const path = s.file('pruned.yaml', stringify(exported));
      const r = await s.run(['apply', '-f', path, '--prune', '--yes']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect((await modulesOf(s, 'sis_course_id:GEO-1')).map((m) => [m.name, m.position])).toEqual([
        ['Beta', 1],
        ['Gamma', 2],
      ]);
      const before = s.writes().length;
      const again = await s.run(['apply', '-f', path, '--prune', '--yes'], { tty: true });
      expect(again.stdout).toContain('No changes');
      expect(s.writes().length).toBe(before);
    },
  );

  it(
    'a file naming what it does not list, a header with ' + 'no title, or published not a boolean is refused unsent',
    async () => {
      const s = counted();
      const bad = FILE.replace('{ page: notes,', '{ page: nope,')
        .replace('prerequisites: [week1]', 'prerequisites: [week3]')
        .replace('{ type: SubHeader, title: Start here }', '{ type: SubHeader }')
        .replace('{ topic: rocks, completion_requirement: must_contribute }', '{ topic: rocks, published: "yes" }');
      const r = await s.run(['apply', '-f', s.file('c.yaml', bad), '--yes']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`page "nope" is not the key of one of this course's pages in the file`);
      expect(r.stderr).toContain('prerequisites "week3" is not the key of a module of this course in the file');
      expect(r.stderr).toContain('a SubHeader item needs a title');
      expect(r.stderr).toContain("an item's published is true or false");
      expect(s.writes()).toEqual([]);
    },
  );

  it('export writes pages and modules back, items by the keys of what they show, and applies alike', async () => {
    const s = counted();
    expect((await s.run(['apply', '-f', s.file('c.yaml', FILE), '--yes'])).exitCode).toBe(0);
    const out = join(s.dir, 'out.yaml');
    const include = ['--include', 'assignments,topics,pages,modules'];
    const e = await s.run(['export', 'course', 'sis_course_id:GEO-1', ...include, '--out', out]);
    expect(e.exitCode, e.stderr).toBe(0);
    expect(e.stderr).toContain('1 assignment, 1 topic, 3 pages, 2 modules');
    const text = readFileSync(out, 'utf8');
    const course = (parse(text) as { courses: Record<string, unknown>[] }).courses[0]!;
    expect(course.modules).toEqual([
      expect.objectContaining({
        key: 'week1',
        name: 'Week 1: Rocks',
        items: [
          { type: 'SubHeader', title: 'Start here' },
          { page: 'notes', completion_requirement: 'must_view' },
          { assignment: 'map', indent: 1, completion_requirement: 'must_submit' },
          { topic: 'rocks', completion_requirement: 'must_contribute' },
          { type: 'ExternalUrl', title: 'USGS', external_url: 'https://www.usgs.gov/' },
        ],
      }),
      expect.objectContaining({
        key: 'week2',
        prerequisites: ['week1'],
        items: [{ page: 'draft', title: 'Coming soon' }],
      }),
    ]);
    const before = s.writes().length;
    const same = await s.run(['apply', '-f', out, '--yes']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(s.writes().length).toBe(before);

    const copy = s.file('copy.yaml', text.replace('sis_course_id: GEO-1', 'sis_course_id: GEO-2'));
    const made = await s.run(['apply', '-f', copy, '--yes']);
    expect(made.exitCode, made.stderr).toBe(0);
    const out2 = join(s.dir, 'out2.yaml');
    expect((await s.run(['export', 'course', 'sis_course_id:GEO-2', ...include, '--out', out2])).exitCode).toBe(0);
    expect(readFileSync(out2, 'utf8')).toBe(text.replace('sis_course_id: GEO-1', 'sis_course_id: GEO-2'));
  });
});
