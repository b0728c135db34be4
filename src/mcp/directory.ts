// Who is staff, as the instance says it: asked lazily, about the people a result names, and kept
// for the life of the server process. Staff stay named under `lms mcp --pseudonymize`; everyone
// else is hidden. The instance is the only one that knows (a name or a login says nothing of a
// role), and a role changes rarely within one session, so each person is asked about once. It fails
// closed: whoever the lookup cannot place (not allowed, not found, no enrollment) counts as a
// student, and so does anyone with a student or observer enrollment anywhere, whatever else they
// teach: their name is a student's too.
import type { ApiClient } from '../client/client.js';
import { lookupEach } from '../bulk/resolve.js';
import { ENROLLMENT_STATES } from '../spec/vocabulary.js';
import type { Directory, Forms, Roles } from './pseudonyms.js';

const STAFF = new Set(['TeacherEnrollment', 'TaEnrollment', 'DesignerEnrollment']);
const STUDENT = new Set(['StudentEnrollment', 'ObserverEnrollment']);

/** Lookups a few at a time, as bulk jobs make them: more in flight only buys throttling. */
const CONCURRENCY = 4;

type Loose = Record<string, unknown>;

export function instanceDirectory(client: () => Promise<ApiClient>): Directory {
  let admins: Promise<Set<string>> | undefined;
  // The accounts the caller administers, and their admins: an admin without an enrollment is staff.
  const adminIds = () =>
    (admins ??= (async () => {
      const c = await client();
      const ids = new Set<string>();
      for await (const account of c.ops.accounts.list({})) {
        for await (const admin of c.ops.admins.list({ account_id: String((account as Loose).id) })) {
          const user = (admin as Loose).user as Loose | undefined;
          if (user?.id !== undefined) ids.add(String(user.id));
        }
      }
      return ids;
    })().catch(() => new Set<string>()));

  return {
    async rolesOf(ids) {
      const c = await client();
      const admin = await adminIds();
      const found = await lookupEach(
        ids,
        async (id): Promise<Roles | undefined> => {
          try {
            let staff = admin.has(id);
            let student = false;
            const forms: Forms[] = [];
            for await (const e of c.ops.enrollments.listUser({ user_id: id, state: [...ENROLLMENT_STATES] })) {
              const type = String((e as Loose).type);
              if (STAFF.has(type)) staff = true;
              if (STUDENT.has(type)) student = true;
              const user = (e as Loose).user as Loose | undefined;
              if (user && forms.length === 0) forms.push(formsOf(user));
            }
            return { staff: staff && !student, forms };
          } catch {
            return undefined;
          }
        },
        CONCURRENCY,
      );
      const roles = new Map<string, Roles>();
      for (const [id, r] of found) if (r) roles.set(id, r);
      return roles;
    },
    async resolve(ref) {
      const user = (await (await client()).ops.users.get({ id: ref })) as Loose;
      return user?.id === undefined ? undefined : { id: String(user.id), ...formsOf(user) };
    },
  };
}

function formsOf(user: Loose): Forms {
  const forms: Forms = {};
  for (const k of ['name', 'sortable_name', 'short_name', 'login_id', 'sis_user_id', 'integration_id', 'email'] as const) {
    const v = user[k];
    if (typeof v === 'string' && v !== '') forms[k] = v;
  }
  return forms;
}
