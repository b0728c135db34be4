// The fields of an apply file come from the command tree: each verb's flags that name the API field
// they set. A flag added to a verb is a field of the file with no change to apply, and the options
// apply hands a verb are the ones commander would have.
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/model/command.js';
import { readApplyFiles } from '../../src/apply/file.js';
import { kindVerbs, optionsFor, updateCalls, type KindVerbs } from '../../src/apply/fields.js';
import type { ApplyTree } from '../../src/apply/model.js';
import { readTree } from '../../src/apply/tree.js';
import { checkRow, COLUMNS, parseRoster, rowKey } from '../../src/commands/enrollments/import.js';
import { toTreeRow, treeTask } from '../../src/commands/outcomes/import.js';
import { parseTreeFile } from '../../src/commands/outcomes/tree-file.js';
import { commandModel } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { counted } from './helpers.js';

const shared: Pick<ApplyTree, 'roster' | 'outcomes'> = {
  roster: { columns: COLUMNS, key: rowKey, check: checkRow, parse: parseRoster },
  outcomes: { parse: parseTreeFile, toRow: toTreeRow, task: treeTask },
};

async function tree(): Promise<ApplyTree> {
  return readTree(commandModel, shared);
}

const fieldsOf = (verbs: KindVerbs) =>
  Object.fromEntries(
    [...verbs.fields.values()].map((f) => [
      f.name,
      `${f.type}${f.choices ? `(${f.choices.join('|')})` : ''}${f.nullable ? '?' : ''}`,
    ]),
  );

describe('fields, read off the verbs that write each kind', () => {
  it(
    'each kind has the fields its create and update flags ' + 'set, named as the API names them, typed as they parse',
    async () => {
      const t = await tree();
      // Update verbs clear what "" clears: those fields may be null.
      expect(fieldsOf(t.course)).toEqual({
        name: 'string',
        course_code: 'string',
        sis_course_id: 'string',
        start_at: 'time?',
        end_at: 'time?',
        time_zone: 'string',
        term: 'string',
        integration_id: 'string',
        apply_assignment_group_weights: 'boolean',
      });
      expect(fieldsOf(t.kinds.assignments)).toEqual({
        name: 'string',
        points_possible: 'number',
        grading_type: 'enum(points|percent|pass_fail|letter_grade|gpa_scale|not_graded)',
        submission_types: 'list',
        due_at: 'time?',
        grading_standard_id: 'integer?',
        description: 'string',
        published: 'boolean',
        assignment_group_id: 'integer',
      });
      expect(fieldsOf(t.kinds.sections)).toEqual({
        name: 'string',
        sis_section_id: 'string?',
        start_at: 'time?',
        end_at: 'time?',
        crosslist_to: 'ref?',
      });
      expect(fieldsOf(t.kinds.topics)).toMatchObject({
        title: 'string',
        message: 'string',
        pinned: 'boolean',
        locked: 'boolean',
        published: 'boolean',
        assignment_id: 'integer?',
        delayed_post_at: 'time?',
        group_category_id: 'integer?',
        discussion_type: 'enum(threaded|side_comment)',
      });
      // Announcements are the topics verbs without publication, group sets or ungrading.
      expect(Object.keys(fieldsOf(t.kinds.announcements))).not.toContain('published');
      expect(Object.keys(fieldsOf(t.kinds.announcements))).not.toContain('group_category_id');
      expect(fieldsOf(t.kinds.quizzes)).toMatchObject({
        title: 'string',
        time_limit: 'integer?',
        shuffle_answers: 'boolean',
        hide_results: 'enum(always|until_after_last_attempt)?',
        published: 'boolean',
        due_at: 'time?',
      });
      // What writes each: create, updates (the one with most fields first), delete.
      expect(t.kinds.quizzes.updates.map((v) => v.spec.name)).toEqual(['update', 'publish', 'unpublish']);
      expect(t.kinds.sections.remove?.spec.name).toBe('delete');
      expect(t.kinds.assignments.updates.map((v) => v.spec.name)).toEqual(['update']);
      expect(t.kinds.assignments.remove?.spec.name).toBe('delete');
      expect(t.course.updates.map((v) => v.spec.name)).toEqual(['update']);
      expect(t.kinds.enrollments.create?.spec.name).toBe('add');
    },
  );

  it('a flag added to a verb later is a field of the file, with no change to apply', async () => {
    const t = await tree();
    const create = t.kinds.assignments.create!.spec;
    const grown: CommandSpec<never> = {
      ...create,
      options: [
        ...(create.options ?? []),
        {
          long: 'peer-reviews',
          value: 'bool',
          description: 'peer reviews',
          choices: ['true', 'false'],
          field: { name: 'peer_reviews' },
        },
      ],
    };
    const widened: ApplyTree = { ...t, kinds: { ...t.kinds, assignments: kindVerbs([grown]) } };
    const s = counted();
    const path = s.file(
      'f.yaml',
      'courses:\n  - sis_course_id: V-1\n    name: V\n    assignments:\n      - { name: A, peer_reviews: true }\n' +
        '      - { name: B, peer_reviews: maybe }\n',
    );
    const before = await readApplyFiles([path], fakeIO().stdin, t);
    expect(before.problems.listed.map((p) => `${p.line}: ${p.message}`)).toEqual([
      expect.stringMatching(/^5: unknown field "peer_reviews" for an assignment/),
      expect.stringMatching(/^6: unknown field "peer_reviews"/),
    ]);
    const after = await readApplyFiles([path], fakeIO().stdin, widened);
    expect(after.problems.listed.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '6: peer_reviews must be true or false, not "maybe"',
    ]);
    expect(
      optionsFor(widened.kinds.assignments.create!, { name: 'A', peer_reviews: true }, { course: 'sis_course_id:V-1' }),
    ).toMatchObject({ name: 'A', peerReviews: 'true', course: 'sis_course_id:V-1' });
  });
});

describe('fields, back into a verb and its options', () => {
  it(
    'options are what commander would pass: defaults, negated flags, switches, true/false choices, "" to clear, ' +
      'lists joined',
    async () => {
      const t = await tree();
      const assignment = t.kinds.assignments.create!;
      expect(
        optionsFor(
          assignment,
          { name: 'Lab', points_possible: 10, submission_types: ['online_upload', 'online_url'], published: false },
          { course: '7' },
        ),
      ).toEqual({
        course: '7',
        name: 'Lab',
        points: '10',
        submissionTypes: 'online_upload,online_url',
        publish: false,
      });
      // published true is what --no-publish leaves: its default.
      expect(optionsFor(assignment, { name: 'Lab', published: true }, {})).toEqual({ name: 'Lab', publish: true });
      expect(optionsFor(t.course.create!, { name: 'C' }, {})).toEqual({ account: 'self', name: 'C' });
      const quiz = t.kinds.quizzes.updates[0];
      expect(
        optionsFor(quiz, { shuffle_answers: false, time_limit: null, hide_results: null }, { course: '1' }),
      ).toEqual({ course: '1', shuffleAnswers: 'false', timeLimit: '', hideResults: '', notify: true });
    },
  );

  it(
    'a change goes to the update verb that can make it: ' + 'a switch by its value, a verb that sets it outright',
    async () => {
      const t = await tree();
      const names = (r: ReturnType<typeof updateCalls>) => ({
        calls: r.calls.map((c) => `${c.verb.spec.name} ${JSON.stringify(c.values)}`),
        impossible: r.impossible,
      });
      expect(names(updateCalls(t.kinds.topics, { pinned: false, locked: true, title: 'T' }))).toEqual({
        calls: ['update {"pinned":false,"locked":true,"title":"T"}'],
        impossible: [],
      });
      expect(optionsFor(t.kinds.topics.updates[0], { pinned: false, locked: true }, { course: '1' })).toMatchObject({
        unpin: true,
        lock: true,
        course: '1',
      });
      expect(names(updateCalls(t.kinds.quizzes, { published: true, time_limit: 5 }))).toEqual({
        calls: ['update {"time_limit":5}', 'publish {"published":true}'],
        impossible: [],
      });
      expect(names(updateCalls(t.kinds.sections, { crosslist_to: null, name: 'N' }))).toEqual({
        calls: ['update {"name":"N"}', 'uncrosslist {"crosslist_to":null}'],
        impossible: [],
      });
      expect(names(updateCalls(t.kinds.topics, { require_initial_post: false }))).toEqual({
        calls: [],
        impossible: ['require_initial_post'],
      });
      expect(names(updateCalls(t.kinds.assignments, { points_possible: 3, published: false, due_at: null }))).toEqual({
        calls: ['update {"points_possible":3,"published":false,"due_at":null}'],
        impossible: [],
      });
      expect(
        optionsFor(
          t.kinds.assignments.updates[0],
          { points_possible: 3, published: false, due_at: null },
          { course: '1' },
        ),
      ).toEqual({ course: '1', points: '3', unpublish: true, dueAt: '' });
      expect(names(updateCalls(t.course, { name: 'N', end_at: null }))).toEqual({
        calls: ['update {"name":"N","end_at":null}'],
        impossible: [],
      });
    },
  );
});

describe('--prune, as its help says it', () => {
  it('names every kind it deletes: those whose noun has a verb that removes one', async () => {
    const t = await tree();
    const apply = commandModel.topLevel.find((c) => c.name === 'apply');
    const help = String(apply?.options?.find((o) => o.long === 'prune')?.description);
    const deleted = Object.entries(t.kinds)
      .filter(([, verbs]) => verbs.remove?.spec.name === 'delete')
      .map(([kind]) => kind.replaceAll('_', ' '));
    expect(deleted.length).toBeGreaterThan(5);
    for (const kind of deleted) expect(help).toContain(kind);
  });
});
