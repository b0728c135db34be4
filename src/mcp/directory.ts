// Who is staff, as the instance says it: learned lazily, a course at a time, and kept for the life
// of the server process. Staff stay named under `lms mcp --pseudonymize`; everyone else is hidden.
// The instance is the only one that knows (a name or a login says nothing of a role), and a role
// changes rarely within one session. What a result concerns is asked about once: each course's
// teachers, TAs and designers (one listing per course, whoever drives the server may read it: a
// teacher sees their fellow teachers there, where they may not read another user's enrollments),
// and the admins of each account the caller administers. A result that concerns no course (an
// account's users) is placed by the courses the caller can see.
//
// It fails closed: whoever no listing names as staff counts as a student, and so does a member of
// staff with a student or observer enrollment anywhere the caller may read (their own enrollments,
// where the caller may list them): their name is a student's too.
import type { ApiClient } from '../client/client.js';
import { lookupEach } from '../bulk/resolve.js';
import { ENROLLMENT_STATES, type EnrollmentType } from '../spec/vocabulary.js';
import { formsOf, type Directory, type Forms, type Roles } from './pseudonyms.js';

const STAFF_TYPES: EnrollmentType[] = ['TeacherEnrollment', 'TaEnrollment', 'DesignerEnrollment'];
const STUDENT_TYPES: EnrollmentType[] = ['StudentEnrollment', 'ObserverEnrollment'];
const STAFF = new Set<string>(STAFF_TYPES);
const STUDENT = new Set<string>(STUDENT_TYPES);

/** Listings a few at a time, as bulk jobs make them: more in flight only buys throttling. */
const CONCURRENCY = 4;
/**
 * The most courses asked for their staff when a result concerns none (a list of users): an admin of
 * a real instance sees thousands, and one listing each would come before the first answer. Staff of
 * courses beyond these count as students until a result concerns their course: hidden, not named.
 */
const MAX_COURSES_UNASKED = 50;

type Loose = Record<string, unknown>;

/** A member of staff as a listing names them: what they are called there. */
type Staff = Map<string, Forms>;

export function instanceDirectory(client: () => Promise<ApiClient>): Directory {
  let accounts: Promise<string[]> | undefined;
  let admins: Promise<Staff> | undefined;
  let visible: Promise<string[]> | undefined;
  const staffOf = new Map<string, Promise<Staff>>();
  const studies = new Map<string, Promise<boolean | undefined>>();

  // The accounts the caller administers (none for a teacher: the listing answers empty or is refused).
  const accountIds = () =>
    (accounts ??= (async () => {
      const c = await client();
      const ids: string[] = [];
      for await (const account of c.ops.accounts.list({})) ids.push(String((account as Loose).id));
      return ids;
    })().catch(() => []));

  // Their admins: an admin without an enrollment is staff.
  const adminsOf = () =>
    (admins ??= (async () => {
      const c = await client();
      const found: Staff = new Map();
      for (const account of await accountIds()) {
        try {
          for await (const admin of c.ops.admins.list({ account_id: account })) {
            const user = (admin as Loose).user as Loose | undefined;
            if (user?.id !== undefined) found.set(String(user.id), formsOf(user));
          }
        } catch {
          // An account whose admins the caller may not list names none.
        }
      }
      return found;
    })());

  // A course's teachers, TAs and designers, in every state: one listing, paginated.
  const staffOfCourse = (course: string) => {
    let staff = staffOf.get(course);
    if (!staff) {
      staff = (async () => {
        const c = await client();
        const found: Staff = new Map();
        for await (const e of c.ops.enrollments.listCourse({
          course_id: course,
          type: STAFF_TYPES,
          state: [...ENROLLMENT_STATES],
        })) {
          const enrollment = e as Loose;
          if (!STAFF.has(String(enrollment.type))) continue;
          const user = enrollment.user as Loose | undefined;
          const id = enrollment.user_id ?? user?.id;
          if (id !== undefined) found.set(String(id), user ? formsOf(user) : {});
        }
        return found;
      })().catch(() => new Map());
      staffOf.set(course, staff);
    }
    return staff;
  };

  // The courses the caller can see: their own, and those of the accounts they administer.
  const visibleCourses = () =>
    (visible ??= (async () => {
      const c = await client();
      const ids = new Set<string>();
      const take = async (listing: AsyncIterable<unknown>) => {
        try {
          for await (const course of listing) {
            if (ids.size >= MAX_COURSES_UNASKED) return;
            ids.add(String((course as Loose).id));
          }
        } catch {
          // What the caller may not list adds nothing.
        }
      };
      await take(c.ops.courses.list({}));
      for (const account of await accountIds())
        if (ids.size < MAX_COURSES_UNASKED) await take(c.ops.courses.listAccount({ account_id: account }));
      return [...ids];
    })());

  // Whether a member of staff is enrolled as a student or observer anywhere; undefined where the caller may not list
  // their enrollments.
  const isStudent = (id: string) => {
    let answer = studies.get(id);
    if (!answer) {
      answer = (async () => {
        const c = await client();
        for await (const e of c.ops.enrollments.listUser({
          user_id: id,
          type: STUDENT_TYPES,
          state: [...ENROLLMENT_STATES],
        })) {
          if (STUDENT.has(String((e as Loose).type))) return true;
        }
        return false;
      })().catch(() => undefined);
      studies.set(id, answer);
    }
    return answer;
  };

  return {
    async rolesOf(ids, courses) {
      const places = courses.length ? courses : await visibleCourses();
      const candidates: Staff = new Map(await adminsOf());
      const listed = await lookupEach(places, staffOfCourse, CONCURRENCY);
      for (const staff of listed.values())
        for (const [id, forms] of staff) if (!candidates.has(id)) candidates.set(id, forms);
      const asked = ids.filter((id) => candidates.has(id));
      // Staff are few: each is asked once whether they also study somewhere.
      const studying = await lookupEach(asked, isStudent, CONCURRENCY);
      const roles = new Map<string, Roles>();
      for (const id of ids) {
        const forms = candidates.get(id);
        roles.set(id, forms === undefined ? { staff: false } : { staff: studying.get(id) !== true, forms: [forms] });
      }
      return roles;
    },
    async resolve(ref) {
      const user = (await (await client()).ops.users.get({ id: ref })) as Loose;
      return user?.id === undefined ? undefined : { id: String(user.id), ...formsOf(user) };
    },
  };
}
