// `lms quizzes` in-process against the seeded mock: flags become quiz[...] parameters, the API's
// refusals become exit 5 with the parameter named, publish and unpublish are updates.
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

describe('lms quizzes', () => {
  it('lists with --search, as JSON and as a table', async () => {
    const s = session();
    const found = await s.run('quizzes list --course sis_course_id:CHEM-201 --search exam -o json');
    expect(found.exitCode).toBe(0);
    expect(JSON.parse(found.stdout).map((q: { title: string }) => q.title)).toEqual(['Midterm Exam']);
    const table = await s.run('quizzes list --course 2', { tty: true });
    expect(table.stdout).toMatch(/^ID +TITLE +QUIZ_TYPE +PUBLISHED/);
    expect(table.stdout).toMatch(/\n4 +Lab Safety Gr.* +graded_survey +false/);
  });

  it('creates a quiz from flags named after the parameters', async () => {
    const s = session();
    const r = await s.run(
      'quizzes create --course 1 --title "Unit 2 Exam" --quiz-type assignment --time-limit 30 --allowed-attempts 2 ' +
        '--scoring-policy keep_latest --hide-results until_after_last_attempt --ip-filter 10.0.0.0/8 --publish -o ' +
        'json',
      { env: TEACHER },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      title: 'Unit 2 Exam',
      quiz_type: 'assignment',
      time_limit: 30,
      allowed_attempts: 2,
      scoring_policy: 'keep_latest',
      hide_results: 'until_after_last_attempt',
      show_correct_answers: false,
      ip_filter: '10.0.0.0/8',
      published: true,
      assignment_id: expect.any(Number),
    });
  });

  it('exits 5 naming the parameter the API refuses', async () => {
    const s = session();
    const r = await s.run('quizzes create --course 1 --title Warm-up --cant-go-back true', { env: TEACHER });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('cant_go_back');
  });

  it('refuses a malformed flag before sending anything', async () => {
    const s = session();
    const r = await s.run('quizzes update 1 --course 1 --time-limit soon');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--time-limit');
    expect((await s.run('quizzes update 1 --course 1')).exitCode).toBe(2);
  });

  it('publishes and unpublishes; a quiz students started stays published', async () => {
    const s = session();
    expect(JSON.parse((await s.run('quizzes publish 4 --course 2 -o json')).stdout).published).toBe(true);
    expect(JSON.parse((await s.run('quizzes unpublish 1 --course 1 --no-notify -o json')).stdout).published).toBe(
      false,
    );
    const refused = await s.run('quizzes unpublish 3 --course 2');
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toContain("Can't unpublish if there are student submissions");
  });

  it('clears a nullable field with ""', async () => {
    const s = session();
    const r = await s.run([
      'quizzes',
      'update',
      '3',
      '--course',
      '2',
      '--time-limit',
      '',
      '--ip-filter',
      '',
      '-o',
      'json',
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ time_limit: null, ip_filter: null });
  });
});
