// Apply files in a scratch folder, a session against a fresh seeded mock whose requests are counted,
// and the course of the issue as a file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiRequest } from '../../src/transport/types.js';
import { session, type RunOptions, type Session } from '../helpers/run-lms.js';

export interface Counted extends Session {
  dir: string;
  requests: ApiRequest[];
  writes(): ApiRequest[];
  /** Writes a file into the scratch folder; answers its path. */
  file(name: string, text: string | Buffer): string;
  /** Runs with the scratch folder as the state directory. */
  run(line: string | string[], options?: RunOptions): ReturnType<Session['run']>;
}

export function counted(): Counted {
  const dir = mkdtempSync(join(tmpdir(), 'lms-apply-'));
  const s = session({ LMS_STATE_DIR: join(dir, 'state') });
  const requests: ApiRequest[] = [];
  const inner = s.mock.handler;
  s.mock.handler = async (req) => {
    requests.push(req);
    return inner(req);
  };
  return {
    ...s,
    dir,
    requests,
    writes: () => requests.filter((r) => r.method !== 'GET'),
    file(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}

/** The course of issue 22 on the seeded school: users and the cross-listing target exist there. */
export const COURSE_YAML = `courses:
  - sis_course_id: BIO-201
    name: Biology II
    course_code: BIO-201
    account: sis_account_id:MSU
    time_zone: America/Denver
    sections:
      - { sis_section_id: BIO-201-A, name: Lab A }
      - { sis_section_id: BIO-201-B, name: Lab B, crosslist_to: sis_course_id:BIO-101 }
    enrollments:
      - { user: sis_user_id:T-003, type: teacher }
      - { user: sam, type: student, section: BIO-201-A }
      - { csv: roster.csv }
    assignments:
      - { key: lab1, name: Lab 1, points_possible: 10, submission_types: [online_text_entry], published: true }
    topics:
      - { key: welcome, title: Welcome, message: "<p>Hello</p>", published: true, pinned: true }
      - { title: Lab 1 discussion, assignment: lab1 }
    announcements:
      - { title: First week, message: "<p>Labs start Tuesday</p>", delayed_post_at: 2026-12-01T08:00:00Z }
    quizzes:
      - { key: q1, title: Quiz 1, quiz_type: assignment, time_limit: 20, allowed_attempts: 2, published: false }
    outcomes: { file: outcomes.yaml }
`;

export const ROSTER_CSV = 'user,type,section,state\nsis_user_id:S-008,student,BIO-201-A,active\nravi,student,,active\n';

export const OUTCOMES_YAML = `groups:
  - title: Field Work
    vendor_guid: bio201-field
    outcomes:
      - title: Keeps a field notebook
        vendor_guid: bio201-notebook
        ratings: ["3:Complete", "1:Partial"]
`;

/** The issue's course with its roster and outcome tree beside it; answers the course file's path. */
export function issueCourse(s: Counted, yaml = COURSE_YAML): string {
  s.file('roster.csv', ROSTER_CSV);
  s.file('outcomes.yaml', OUTCOMES_YAML);
  return s.file('course.yaml', yaml);
}
