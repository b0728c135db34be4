// A request for every route of the route table that an allowed caller would make to the seeded school
// (a path to a seeded record and, for a write, a body that would succeed), and the seeded people who
// are allowed it. The role × route matrix (test/mock/role-matrix.test.ts) sends each as every kind of
// caller; the hostile-input suite (test/e2e/hostile-routes.ts) attacks each path. A new route adds its
// row here.
import { MOCK_CLIENT_ID, MOCK_CLIENT_SECRET } from '../../src/mock/areas/oauth/seed.js';

/** The seeded school's people, least to most privileged, and one who is no one's. */
export const ROLES = {
  anonymous: undefined,
  /** Olive observes Sam in BIO-101 (course 1). */
  observer: '13~mock-olive',
  /** Sam: a student in BIO-101 section A and CHEM-201, a member of lab group 1. */
  student: '7~mock-sam',
  designer: '6~mock-designer',
  /** Tara: a TA of BIO-101 limited to section A. */
  ta: '5~mock-tara',
  /** Theo teaches HIST-110 and grades in the lab course: a teacher, but not of BIO-101. */
  otherTeacher: '4~mock-theo',
  /** A custom root-account role: users, logins, statistics, course lists; no content, no SIS. */
  helpdesk: '2~mock-helpdesk',
  /** Tess teaches BIO-101. */
  teacher: '3~mock-tteacher',
  /** An AccountAdmin of the School of Science (account 2, BIO-101's), not of the root account. */
  subAdmin: 'x~mock-subadmin',
  admin: '1~mock-admin',
} as const;
export type Role = keyof typeof ROLES;
export const ALL_ROLES = Object.keys(ROLES) as Role[];

const EVERYONE: Role[] = ALL_ROLES.filter((r) => r !== 'anonymous');
/** Whoever may read BIO-101: its members and the admins above it. */
export const BIO_READERS: Role[] = [
  'observer',
  'student',
  'designer',
  'ta',
  'helpdesk',
  'teacher',
  'subAdmin',
  'admin',
];
/** Who may read BIO-101's roster (observers may not). */
const BIO_ROSTER: Role[] = BIO_READERS.filter((r) => r !== 'observer');
/** Who manages BIO-101's content. */
export const BIO_CONTENT: Role[] = ['designer', 'ta', 'teacher', 'subAdmin', 'admin'];
/** Who grades Sam in BIO-101 (the TA's section is his). */
const SAM_GRADERS: Role[] = ['ta', 'teacher', 'subAdmin', 'admin'];
/** Who moderates BIO-101's forums and manages its outcomes. */
const BIO_OUTCOMES: Role[] = ['designer', 'teacher', 'subAdmin', 'admin'];
/** Who runs BIO-101's sections and enrollments. */
const BIO_TEACHERS: Role[] = ['teacher', 'subAdmin', 'admin'];
/** Who reads lab group 1: its members, the course's forum moderators, admins above it. */
const GROUP_READERS: Role[] = ['student', 'designer', 'ta', 'helpdesk', 'teacher', 'subAdmin', 'admin'];
/** Who acts in lab group 1's forum: its members and the course's moderators. */
const GROUP_POSTERS: Role[] = ['student', 'designer', 'ta', 'teacher', 'subAdmin', 'admin'];
/** Who manages users of the root account (and so Sam or Sofia). */
const USER_MANAGERS: Role[] = ['helpdesk', 'admin'];
/** Sam himself and who manages him. */
const SAM_AND_MANAGERS: Role[] = ['student', 'helpdesk', 'admin'];
/** Who may see Sofia (a student of BIO-101): classmates, her course's staff, admins over it. */
const SOFIA_VIEWERS: Role[] = ['observer', 'student', 'designer', 'ta', 'helpdesk', 'teacher', 'subAdmin', 'admin'];
const ROOT_ADMIN: Role[] = ['admin'];
/** Readers of the root account's outcomes and course lists. */
const ROOT_READERS: Role[] = ['helpdesk', 'admin'];
/** Who reads the root account's terms: an admin there or below, a teacher or TA of one of its courses. */
const TERM_READERS: Role[] = ['ta', 'otherTeacher', 'helpdesk', 'teacher', 'subAdmin', 'admin'];

interface Row {
  path: string;
  /** A JSON body that would succeed for an allowed caller. */
  body?: Record<string, unknown>;
  allow: readonly Role[];
  /**
   * The seeded record is not one the route acts on (an import that has ended, for abort): an allowed
   * caller is answered 404, where the others are refused with 401 or 403.
   */
  notFoundWhenAllowed?: true;
}

/** An authorization request of the seeded developer key, as `lms auth login` sends one. */
const OAUTH_REQUEST = {
  client_id: MOCK_CLIENT_ID,
  response_type: 'code',
  redirect_uri: 'http://127.0.0.1:53682/callback',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
};

export const topic = (ctx: string, id: number, rest = '') => `/api/v1/${ctx}/discussion_topics/${id}${rest}`;
export const C = 'courses/1';
const G = 'groups/1';
const I = 'collection_items/1';

/** The collection item's topic 14 is Sofia's item: anyone may read and post there; she and the root admin moderate. */
export const ROUTE_ROWS: Record<string, Row> = {
  'users.list': { path: '/api/v1/accounts/1/users', allow: USER_MANAGERS },
  'users.create': {
    path: '/api/v1/accounts/1/users',
    body: { user: { name: 'Nia New' }, pseudonym: { unique_id: 'nia' } },
    allow: USER_MANAGERS,
  },
  'users.update': { path: '/api/v1/users/7', body: { user: { name: 'Samuel Student' } }, allow: SAM_AND_MANAGERS },
  'users.delete': { path: '/api/v1/accounts/1/users/8', allow: USER_MANAGERS },
  'users.getSettings': { path: '/api/v1/users/7/settings', allow: SAM_AND_MANAGERS },
  'users.updateSettings': {
    path: '/api/v1/users/7/settings',
    body: { manual_mark_as_read: true },
    allow: SAM_AND_MANAGERS,
  },
  'users.follow': { path: '/api/v1/users/8/followers/self', allow: EVERYONE },
  'users.unfollow': { path: '/api/v1/users/8/followers/self', allow: EVERYONE },
  'users.profile': { path: '/api/v1/users/8/profile', allow: SOFIA_VIEWERS },
  'users.avatars': { path: '/api/v1/users/8/avatars', allow: USER_MANAGERS },
  'users.pageViews': { path: '/api/v1/users/7/page_views', allow: SAM_AND_MANAGERS },
  // Sam's logins: Sam, and admins who read logins over an account Sam is within (the school's too).
  'users.logins': { path: '/api/v1/users/7/logins', allow: ['student', 'helpdesk', 'subAdmin', 'admin'] },
  'users.uploadFile': { path: '/api/v1/users/self/files', body: { name: 'notes.txt', size: 3 }, allow: EVERYONE },
  'users.activityStream': { path: '/api/v1/users/self/activity_stream', allow: EVERYONE },
  'users.activityStreamAlias': { path: '/api/v1/users/activity_stream', allow: EVERYONE },
  'users.activityStreamSummary': { path: '/api/v1/users/self/activity_stream/summary', allow: EVERYONE },
  'users.todo': { path: '/api/v1/users/self/todo', allow: EVERYONE },
  'users.upcomingEvents': { path: '/api/v1/users/self/upcoming_events', allow: EVERYONE },
  'users.get': { path: '/api/v1/users/8', allow: SOFIA_VIEWERS },
  'users.ignoreTodo': { path: '/api/v1/users/self/todo/assignment_1/grading', allow: EVERYONE },
  /** Stream item 1 is in Sam's stream only. */
  'users.hideStreamItem': { path: '/api/v1/users/self/activity_stream/1', allow: ['student'] },

  'discussions.listTopics': { path: `/api/v1/${C}/discussion_topics`, allow: BIO_READERS },
  'discussions.listGroupTopics': { path: `/api/v1/${G}/discussion_topics`, allow: GROUP_READERS },
  'discussions.createTopic@courses': {
    path: `/api/v1/${C}/discussion_topics`,
    body: { title: 'Questions', message: 'Ask here' },
    allow: ['student', ...BIO_CONTENT],
  },
  'discussions.createTopic@groups': {
    path: `/api/v1/${G}/discussion_topics`,
    body: { title: 'Plan', message: 'Bench plan' },
    allow: GROUP_POSTERS,
  },
  'discussions.createTopic@collection_items': {
    path: `/api/v1/${I}/discussion_topics`,
    body: { title: 'On the video', message: 'Thoughts' },
    allow: EVERYONE,
  },
  'discussions.updateTopic@courses': { path: topic(C, 2), body: { title: 'Renamed' }, allow: BIO_CONTENT },
  'discussions.updateTopic@groups': { path: topic(G, 13), body: { title: 'Renamed' }, allow: GROUP_POSTERS },
  'discussions.updateTopic@collection_items': {
    path: topic(I, 14),
    body: { title: 'Renamed' },
    allow: ['helpdesk', 'admin'],
  },
  'discussions.deleteTopic@courses': { path: topic(C, 8), allow: BIO_CONTENT },
  'discussions.deleteTopic@groups': { path: topic(G, 13), allow: GROUP_POSTERS },
  'discussions.deleteTopic@collection_items': { path: topic(I, 14), allow: ['helpdesk', 'admin'] },
  'discussions.getTopic@courses': { path: topic(C, 2), allow: BIO_READERS },
  'discussions.getTopic@groups': { path: topic(G, 13), allow: GROUP_READERS },
  'discussions.getTopic@collection_items': { path: topic(I, 14), allow: EVERYONE },
  'discussions.viewTopic@courses': { path: topic(C, 2, '/view'), allow: BIO_READERS },
  'discussions.viewTopic@groups': { path: topic(G, 13, '/view'), allow: GROUP_READERS },
  'discussions.viewTopic@collection_items': { path: topic(I, 14, '/view'), allow: EVERYONE },
  'discussions.createEntry@courses': {
    path: topic(C, 2, '/entries'),
    body: { message: 'Hello' },
    allow: ['student', ...BIO_CONTENT],
  },
  'discussions.createEntry@groups': {
    path: topic(G, 13, '/entries'),
    body: { message: 'Hello' },
    allow: GROUP_POSTERS,
  },
  'discussions.createEntry@collection_items': {
    path: topic(I, 14, '/entries'),
    body: { message: 'Hello' },
    allow: EVERYONE,
  },
  'discussions.listEntries@courses': { path: topic(C, 2, '/entries'), allow: BIO_READERS },
  'discussions.listEntries@groups': { path: topic(G, 13, '/entries'), allow: GROUP_READERS },
  'discussions.listEntries@collection_items': { path: topic(I, 14, '/entries'), allow: EVERYONE },
  'discussions.createReply@courses': {
    path: topic(C, 2, '/entries/1/replies'),
    body: { message: 'Agreed' },
    allow: ['student', ...BIO_CONTENT],
  },
  'discussions.createReply@groups': {
    path: topic(G, 13, '/entries/31/replies'),
    body: { message: 'Agreed' },
    allow: GROUP_POSTERS,
  },
  'discussions.createReply@collection_items': {
    path: topic(I, 14, '/entries/32/replies'),
    body: { message: 'Agreed' },
    allow: EVERYONE,
  },
  'discussions.listReplies@courses': { path: topic(C, 2, '/entries/1/replies'), allow: BIO_READERS },
  'discussions.listReplies@groups': { path: topic(G, 13, '/entries/31/replies'), allow: GROUP_READERS },
  'discussions.listReplies@collection_items': { path: topic(I, 14, '/entries/32/replies'), allow: EVERYONE },
  'discussions.entryList@courses': { path: topic(C, 2, '/entry_list'), allow: BIO_READERS },
  'discussions.entryList@groups': { path: topic(G, 13, '/entry_list'), allow: GROUP_READERS },
  'discussions.entryList@collection_items': { path: topic(I, 14, '/entry_list'), allow: EVERYONE },
  /** Entry 1 is Sam's, in section A: he, and the forum's moderators of his section. */
  'discussions.updateEntry@courses': {
    path: topic(C, 2, '/entries/1'),
    body: { message: 'Edited' },
    allow: ['student', ...BIO_CONTENT],
  },
  /** Entry 31 is Sofia's. */
  'discussions.updateEntry@groups': {
    path: topic(G, 13, '/entries/31'),
    body: { message: 'Edited' },
    allow: BIO_CONTENT,
  },
  /** Entry 32 is Sam's, on Sofia's item. */
  'discussions.updateEntry@collection_items': {
    path: topic(I, 14, '/entries/32'),
    body: { message: 'Edited' },
    allow: ['student', 'helpdesk', 'admin'],
  },
  /** Entry 6 is Hana's, in section B: the section-limited TA cannot moderate it. */
  'discussions.deleteEntry@courses': { path: topic(C, 2, '/entries/6'), allow: BIO_OUTCOMES },
  'discussions.deleteEntry@groups': { path: topic(G, 13, '/entries/31'), allow: BIO_CONTENT },
  'discussions.deleteEntry@collection_items': {
    path: topic(I, 14, '/entries/32'),
    allow: ['student', 'helpdesk', 'admin'],
  },
  ...readState('markTopicRead', '/read'),
  ...readState('markTopicUnread', '/read'),
  ...readState('markAllRead', '/read_all'),
  ...readState('markAllUnread', '/read_all'),
  ...readState('markEntryRead', '/entries/1/read', '/entries/31/read', '/entries/32/read'),
  ...readState('markEntryUnread', '/entries/1/read', '/entries/31/read', '/entries/32/read'),
  ...readState('subscribe', '/subscribed'),
  ...readState('unsubscribe', '/subscribed'),

  'outcomes.rootGroup@global': { path: '/api/v1/global/root_outcome_group', allow: EVERYONE },
  'outcomes.rootGroup@accounts': { path: '/api/v1/accounts/1/root_outcome_group', allow: ROOT_READERS },
  'outcomes.rootGroup@courses': { path: `/api/v1/${C}/root_outcome_group`, allow: BIO_READERS },
  'outcomes.getGroup@global': { path: '/api/v1/global/outcome_groups/8', allow: EVERYONE },
  'outcomes.getGroup@accounts': { path: '/api/v1/accounts/1/outcome_groups/2', allow: ROOT_READERS },
  'outcomes.getGroup@courses': { path: `/api/v1/${C}/outcome_groups/6`, allow: BIO_READERS },
  'outcomes.updateGroup@global': {
    path: '/api/v1/global/outcome_groups/8',
    body: { title: 'Renamed' },
    allow: ROOT_ADMIN,
  },
  'outcomes.updateGroup@accounts': {
    path: '/api/v1/accounts/1/outcome_groups/3',
    body: { title: 'Renamed' },
    allow: ROOT_ADMIN,
  },
  'outcomes.updateGroup@courses': {
    path: `/api/v1/${C}/outcome_groups/6`,
    body: { title: 'Renamed' },
    allow: BIO_OUTCOMES,
  },
  'outcomes.deleteGroup@global': { path: '/api/v1/global/outcome_groups/8', allow: ROOT_ADMIN },
  'outcomes.deleteGroup@accounts': { path: '/api/v1/accounts/1/outcome_groups/3', allow: ROOT_ADMIN },
  'outcomes.deleteGroup@courses': { path: `/api/v1/${C}/outcome_groups/6`, allow: BIO_OUTCOMES },
  'outcomes.listLinks@global': { path: '/api/v1/global/outcome_groups/8/outcomes', allow: EVERYONE },
  'outcomes.listLinks@accounts': { path: '/api/v1/accounts/1/outcome_groups/2/outcomes', allow: ROOT_READERS },
  'outcomes.listLinks@courses': { path: `/api/v1/${C}/outcome_groups/6/outcomes`, allow: BIO_READERS },
  'outcomes.createOutcome@global': {
    path: '/api/v1/global/outcome_groups/8/outcomes',
    body: { title: 'Reads critically' },
    allow: ROOT_ADMIN,
  },
  'outcomes.createOutcome@accounts': {
    path: '/api/v1/accounts/1/outcome_groups/2/outcomes',
    body: { title: 'Reads critically' },
    allow: ROOT_ADMIN,
  },
  'outcomes.createOutcome@courses': {
    path: `/api/v1/${C}/outcome_groups/6/outcomes`,
    body: { title: 'Reads critically' },
    allow: BIO_OUTCOMES,
  },
  'outcomes.linkOutcome@global': { path: '/api/v1/global/outcome_groups/8/outcomes/6', allow: ROOT_ADMIN },
  'outcomes.linkOutcome@accounts': { path: '/api/v1/accounts/1/outcome_groups/4/outcomes/1', allow: ROOT_ADMIN },
  'outcomes.linkOutcome@courses': { path: `/api/v1/${C}/outcome_groups/6/outcomes/4`, allow: BIO_OUTCOMES },
  'outcomes.unlinkOutcome@global': { path: '/api/v1/global/outcome_groups/8/outcomes/6', allow: ROOT_ADMIN },
  'outcomes.unlinkOutcome@accounts': { path: '/api/v1/accounts/1/outcome_groups/3/outcomes/3', allow: ROOT_ADMIN },
  'outcomes.unlinkOutcome@courses': { path: `/api/v1/${C}/outcome_groups/6/outcomes/2`, allow: BIO_OUTCOMES },
  'outcomes.listSubgroups@global': { path: '/api/v1/global/outcome_groups/7/subgroups', allow: EVERYONE },
  'outcomes.listSubgroups@accounts': { path: '/api/v1/accounts/1/outcome_groups/1/subgroups', allow: ROOT_READERS },
  'outcomes.listSubgroups@courses': { path: `/api/v1/${C}/outcome_groups/5/subgroups`, allow: BIO_READERS },
  'outcomes.createSubgroup@global': {
    path: '/api/v1/global/outcome_groups/7/subgroups',
    body: { title: 'Writing' },
    allow: ROOT_ADMIN,
  },
  'outcomes.createSubgroup@accounts': {
    path: '/api/v1/accounts/1/outcome_groups/2/subgroups',
    body: { title: 'Writing' },
    allow: ROOT_ADMIN,
  },
  'outcomes.createSubgroup@courses': {
    path: `/api/v1/${C}/outcome_groups/6/subgroups`,
    body: { title: 'Writing' },
    allow: BIO_OUTCOMES,
  },
  'outcomes.importGroup@global': {
    path: '/api/v1/global/outcome_groups/7/import',
    body: { source_outcome_group_id: 8 },
    allow: ROOT_ADMIN,
  },
  'outcomes.importGroup@accounts': {
    path: '/api/v1/accounts/1/outcome_groups/4/import',
    body: { source_outcome_group_id: 8 },
    allow: ROOT_ADMIN,
  },
  'outcomes.importGroup@courses': {
    path: `/api/v1/${C}/outcome_groups/5/import`,
    body: { source_outcome_group_id: 8 },
    allow: BIO_OUTCOMES,
  },

  'conversations.list': { path: '/api/v1/conversations', allow: EVERYONE },
  /**
   * A message to Tess: everyone who shares a course with her, and the admins who may read rosters above her courses.
   */
  'conversations.create': {
    path: '/api/v1/conversations',
    body: { recipients: ['3'], body: 'A question', subject: 'Lab' },
    allow: EVERYONE,
  },
  'conversations.batches': { path: '/api/v1/conversations/batches', allow: EVERYONE },
  /** Conversation 1 is between Sam and Tess. */
  'conversations.get': { path: '/api/v1/conversations/1', allow: ['student', 'teacher'] },
  'conversations.update': {
    path: '/api/v1/conversations/1',
    body: { conversation: { starred: true } },
    allow: ['student', 'teacher'],
  },
  /** A background job: it starts for anyone, and fails each conversation the caller is not in. */
  'conversations.batchUpdate': {
    path: '/api/v1/conversations',
    body: { conversation_ids: ['1'], event: 'mark_as_read' },
    allow: EVERYONE,
  },
  'conversations.markAllRead': { path: '/api/v1/conversations/mark_all_as_read', allow: EVERYONE },
  'conversations.delete': { path: '/api/v1/conversations/1', allow: ['student', 'teacher'] },
  'conversations.addRecipients': {
    path: '/api/v1/conversations/2/add_recipients',
    body: { recipients: ['9'] },
    allow: ['student', 'teacher'],
  },
  'conversations.addMessage': {
    path: '/api/v1/conversations/1/add_message',
    body: { body: 'And another thing' },
    allow: ['student', 'teacher'],
  },
  'conversations.removeMessages': {
    path: '/api/v1/conversations/1/remove_messages',
    body: { remove: ['1'] },
    allow: ['student', 'teacher'],
  },
  'conversations.unreadCount': { path: '/api/v1/conversations/unread_count', allow: EVERYONE },
  'conversations.findRecipients': { path: '/api/v1/conversations/find_recipients', allow: EVERYONE },
  'search.recipients': { path: '/api/v1/search/recipients', allow: EVERYONE },

  'quizzes.list': { path: `/api/v1/${C}/quizzes`, allow: BIO_READERS },
  'quizzes.get': { path: `/api/v1/${C}/quizzes/2`, allow: BIO_READERS },
  'quizzes.create': { path: `/api/v1/${C}/quizzes`, body: { quiz: { title: 'Pop quiz' } }, allow: BIO_CONTENT },
  'quizzes.update': { path: `/api/v1/${C}/quizzes/1`, body: { quiz: { title: 'Renamed' } }, allow: BIO_CONTENT },

  'modules.list': { path: `/api/v1/${C}/modules`, allow: BIO_READERS },
  'modules.get': { path: `/api/v1/${C}/modules/1`, allow: BIO_READERS },
  'modules.create': { path: `/api/v1/${C}/modules`, body: { module: { name: 'Week 9' } }, allow: BIO_CONTENT },
  'modules.update': { path: `/api/v1/${C}/modules/1`, body: { module: { name: 'Renamed' } }, allow: BIO_CONTENT },
  'modules.delete': { path: `/api/v1/${C}/modules/3`, allow: BIO_CONTENT },
  'modules.relock': { path: `/api/v1/${C}/modules/2/relock`, allow: BIO_CONTENT },
  'modules.listItems': { path: `/api/v1/${C}/modules/1/items`, allow: BIO_READERS },
  'modules.getItem': { path: `/api/v1/${C}/modules/1/items/2`, allow: BIO_READERS },
  'modules.createItem': {
    path: `/api/v1/${C}/modules/1/items`,
    body: { module_item: { type: 'SubHeader', title: 'Extra' } },
    allow: BIO_CONTENT,
  },
  'modules.updateItem': {
    path: `/api/v1/${C}/modules/1/items/2`,
    body: { module_item: { indent: 2 } },
    allow: BIO_CONTENT,
  },
  'modules.deleteItem': { path: `/api/v1/${C}/modules/1/items/1`, allow: BIO_CONTENT },
  /** Marks are the caller's own: whoever may read the course and see the item. */
  'modules.markDone': { path: `/api/v1/${C}/modules/1/items/5/done`, allow: BIO_READERS },
  'modules.markNotDone': { path: `/api/v1/${C}/modules/1/items/5/done`, allow: BIO_READERS },
  'modules.markRead': { path: `/api/v1/${C}/modules/1/items/5/mark_read`, allow: BIO_READERS },

  'enrollments.listCourse': { path: `/api/v1/${C}/enrollments`, allow: BIO_ROSTER },
  'courses.users': { path: `/api/v1/${C}/users`, allow: BIO_ROSTER },
  'courses.uploadFile': { path: `/api/v1/${C}/files`, body: { name: 'syllabus.pdf', size: 3 }, allow: BIO_CONTENT },
  'enrollments.listSection': { path: '/api/v1/sections/1/enrollments', allow: BIO_ROSTER },
  'enrollments.listUser': { path: '/api/v1/users/7/enrollments', allow: SAM_AND_MANAGERS },
  /** Enrolling Mina (user 10) as a student: the TA manages students, in her own section only. */
  'enrollments.enrollCourse': {
    path: `/api/v1/${C}/enrollments`,
    body: { enrollment: { user_id: '13', type: 'StudentEnrollment', course_section_id: 1 } },
    allow: SAM_GRADERS,
  },
  'enrollments.enrollSection': {
    path: '/api/v1/sections/1/enrollments',
    body: { enrollment: { user_id: '13', type: 'StudentEnrollment' } },
    allow: SAM_GRADERS,
  },
  /** Enrollment 1 is Tess's own teacher enrollment. */
  'enrollments.end': { path: `/api/v1/${C}/enrollments/1`, allow: BIO_TEACHERS },

  ...bySection({
    submit: {
      path: '/assignments/1/submissions',
      body: { submission: { submission_type: 'online_text_entry', body: 'My answer' } },
      allow: ['student'],
    },
    // Every student's submission of an assignment: those who grade or view all grades (a student or
    // an observer lists theirs through /students/submissions, as real instances rule).
    list: { path: '/assignments/1/submissions', allow: SAM_GRADERS },
    // The course's readers; each sees whose submissions they may (a student theirs, an observer their student's).
    listStudents: { path: '/students/submissions', allow: BIO_READERS },
    get: { path: '/assignments/1/submissions/7', allow: ['observer', 'student', ...SAM_GRADERS] },
    uploadFile: {
      path: '/assignments/1/submissions/self/files',
      body: { name: 'essay.txt', size: 3 },
      allow: ['student'],
    },
    grade: { path: '/assignments/1/submissions/7', body: { submission: { posted_grade: '9' } }, allow: SAM_GRADERS },
  }),
  'grading.updateGrades@courses': {
    path: `/api/v1/${C}/assignments/1/submissions/update_grades`,
    body: { grade_data: { 7: { posted_grade: '9' } } },
    allow: SAM_GRADERS,
  },
  'grading.updateGrades@sections': {
    path: '/api/v1/sections/1/assignments/1/submissions/update_grades',
    body: { grade_data: { 7: { posted_grade: '9' } } },
    allow: SAM_GRADERS,
  },

  'sections.list': { path: `/api/v1/${C}/sections`, allow: BIO_READERS },
  'sections.create': {
    path: `/api/v1/${C}/sections`,
    body: { course_section: { name: 'Section C' } },
    allow: BIO_TEACHERS,
  },
  /** Section 2 of BIO-101 into the lab course (5), which Tess also teaches. */
  'sections.crosslist': { path: '/api/v1/sections/2/crosslist/5', allow: BIO_TEACHERS },
  'sections.uncrosslist': { path: '/api/v1/sections/7/crosslist', allow: BIO_TEACHERS },
  'sections.update': {
    path: '/api/v1/sections/1',
    body: { course_section: { name: 'Section A (Tue)' } },
    allow: BIO_TEACHERS,
  },
  'sections.getInCourse': { path: `/api/v1/${C}/sections/2`, allow: BIO_READERS },
  'sections.get': { path: '/api/v1/sections/2', allow: BIO_READERS },
  'sections.delete': { path: '/api/v1/sections/2', allow: BIO_TEACHERS },

  // canvas-lms asks manage_rubrics of the course for every rubrics call: those who manage its content.
  'rubrics.list': { path: `/api/v1/${C}/rubrics`, allow: BIO_CONTENT },
  'rubrics.get': { path: `/api/v1/${C}/rubrics/1`, allow: BIO_CONTENT },
  'rubrics.create': {
    path: `/api/v1/${C}/rubrics`,
    body: {
      rubric: { title: 'Poster', criteria: { 0: { description: 'Layout', points: '5' } } },
      rubric_association: { association_type: 'Assignment', association_id: '1', use_for_grading: 'true' },
    },
    allow: BIO_CONTENT,
  },
  'rubrics.update': {
    path: `/api/v1/${C}/rubrics/1`,
    body: { rubric: { title: 'Lab Report (v2)' } },
    allow: BIO_CONTENT,
  },
  'rubrics.delete': { path: `/api/v1/${C}/rubrics/1`, allow: BIO_CONTENT },
  // Association 2 grades assignment 1 by rubric 1; assessment 1 is Sam's under it.
  'rubrics.createAssociation': {
    path: `/api/v1/${C}/rubric_associations`,
    body: { rubric_association: { rubric_id: '1', association_type: 'Assignment', association_id: '3' } },
    allow: BIO_CONTENT,
  },
  'rubrics.updateAssociation': {
    path: `/api/v1/${C}/rubric_associations/2`,
    body: { rubric_association: { hide_points: 'true' } },
    allow: BIO_CONTENT,
  },
  'rubrics.deleteAssociation': { path: `/api/v1/${C}/rubric_associations/2`, allow: BIO_CONTENT },
  // Assessing is grading Sam (the mock has no peer review assignments that would let a student).
  'rubrics.createAssessment': {
    path: `/api/v1/${C}/rubric_associations/2/rubric_assessments`,
    body: { rubric_assessment: { user_id: '7', assessment_type: 'grading', criterion_method: { points: '0' } } },
    allow: SAM_GRADERS,
  },
  'rubrics.updateAssessment': {
    path: `/api/v1/${C}/rubric_associations/2/rubric_assessments/1`,
    body: { rubric_assessment: { criterion_method: { points: '0' } } },
    allow: SAM_GRADERS,
  },
  // Deleting one is managing the association: those who manage the course's rubrics.
  'rubrics.deleteAssessment': { path: `/api/v1/${C}/rubric_associations/2/rubric_assessments/1`, allow: BIO_CONTENT },

  'admins.create': { path: '/api/v1/accounts/1/admins', body: { user_id: '3' }, allow: ROOT_ADMIN },
  'admins.delete': { path: '/api/v1/accounts/1/admins/2', body: { role_id: 7 }, allow: ROOT_ADMIN },
  'admins.list': { path: '/api/v1/accounts/1/admins', allow: ROOT_ADMIN },
  'roles.list': { path: '/api/v1/accounts/1/roles', allow: ROOT_ADMIN },

  'history.days': { path: `/api/v1/${C}/gradebook_history/days`, allow: SAM_GRADERS },
  'history.day': { path: `/api/v1/${C}/gradebook_history/2026-09-16`, allow: SAM_GRADERS },
  'history.submissions': {
    path: `/api/v1/${C}/gradebook_history/2026-09-16/graders/3/assignments/1/submissions`,
    allow: SAM_GRADERS,
  },
  'history.feed': { path: `/api/v1/${C}/gradebook_history/feed`, allow: SAM_GRADERS },

  'accounts.list': { path: '/api/v1/accounts', allow: EVERYONE },
  'accounts.get': { path: '/api/v1/accounts/2', allow: ['helpdesk', 'subAdmin', 'admin'] },
  /** Progress 1 is the root admin's own job. */
  'progress.get': { path: '/api/v1/progress/1', allow: ROOT_ADMIN },
  /** SIS imports: the root account's admins only (import 1 is the seeded, finished one). */
  'terms.list': { path: '/api/v1/accounts/1/terms', allow: TERM_READERS },
  'terms.get': { path: '/api/v1/accounts/1/terms/sis_term_id:2026-FA', allow: TERM_READERS },
  'terms.create': {
    path: '/api/v1/accounts/1/terms',
    body: { enrollment_term: { name: 'Spring 2027', sis_term_id: '2027-SP' } },
    allow: ROOT_ADMIN,
  },
  'terms.update': {
    path: '/api/v1/accounts/1/terms/sis_term_id:2026-FA',
    body: { enrollment_term: { name: 'Fall 2026 (renamed)' } },
    allow: ROOT_ADMIN,
  },
  // Fall 2026 has no course in it in the seeded school, so its admin may delete it.
  'terms.delete': { path: '/api/v1/accounts/1/terms/sis_term_id:2026-FA', allow: ROOT_ADMIN },
  'sis.create': { path: '/api/v1/accounts/1/sis_imports', allow: ROOT_ADMIN },
  'sis.list': { path: '/api/v1/accounts/1/sis_imports', allow: ROOT_ADMIN },
  'sis.get': { path: '/api/v1/accounts/1/sis_imports/1', allow: ROOT_ADMIN },
  'sis.abort': {
    path: '/api/v1/accounts/1/sis_imports/1/abort',
    body: {},
    allow: ROOT_ADMIN,
    notFoundWhenAllowed: true,
  },
  'courses.list': { path: '/api/v1/courses', allow: EVERYONE },
  'courses.listAccount': { path: '/api/v1/accounts/1/courses', allow: ROOT_READERS },
  'courses.create': {
    path: '/api/v1/accounts/2/courses',
    body: { course: { name: 'Genetics', course_code: 'BIO-301' } },
    allow: ['subAdmin', 'admin'],
  },
  'courses.get': { path: `/api/v1/${C}`, allow: BIO_READERS },
  /** As create: those who may create courses in BIO-101's account. */
  'courses.update': { path: `/api/v1/${C}`, body: { course: { name: 'Biology I' } }, allow: ['subAdmin', 'admin'] },
  'assignments.list': { path: `/api/v1/${C}/assignments`, allow: BIO_READERS },
  'assignments.create': {
    path: `/api/v1/${C}/assignments`,
    body: { assignment: { name: 'Lab 9', points_possible: 10 } },
    allow: BIO_CONTENT,
  },
  'assignments.get': { path: `/api/v1/${C}/assignments/1`, allow: BIO_READERS },
  'assignments.update': {
    path: `/api/v1/${C}/assignments/1`,
    body: { assignment: { points_possible: 25 } },
    allow: BIO_CONTENT,
  },
  'assignments.delete': { path: `/api/v1/${C}/assignments/2`, allow: BIO_CONTENT },
  // Pages: every reader of BIO-101 reads its published pages; who manages its content writes them
  // and reads their history (the seeded pages name no other editors).
  'pages.list': { path: `/api/v1/${C}/pages`, allow: BIO_READERS },
  'pages.create': { path: `/api/v1/${C}/pages`, body: { wiki_page: { title: 'Week 2' } }, allow: BIO_CONTENT },
  'pages.get': { path: `/api/v1/${C}/pages/week-1-notes`, allow: BIO_READERS },
  'pages.update': {
    path: `/api/v1/${C}/pages/week-1-notes`,
    body: { wiki_page: { body: '<p>More</p>' } },
    allow: BIO_CONTENT,
  },
  'pages.delete': { path: `/api/v1/${C}/pages/lab-safety-draft`, allow: BIO_CONTENT },
  'pages.getFront': { path: `/api/v1/${C}/front_page`, allow: BIO_READERS },
  'pages.updateFront': {
    path: `/api/v1/${C}/front_page`,
    body: { wiki_page: { body: '<p>Syllabus v2</p>' } },
    allow: BIO_CONTENT,
  },
  'pages.revisions': { path: `/api/v1/${C}/pages/week-1-notes/revisions`, allow: BIO_CONTENT },
  'pages.getRevision': { path: `/api/v1/${C}/pages/week-1-notes/revisions/latest`, allow: BIO_READERS },
  'pages.revert': { path: `/api/v1/${C}/pages/week-1-notes/revisions/1`, allow: BIO_CONTENT },
  'assignmentGroups.list': { path: `/api/v1/${C}/assignment_groups?include[]=assignments`, allow: BIO_READERS },
  'assignmentGroups.create': {
    path: `/api/v1/${C}/assignment_groups`,
    body: { name: 'Labs', group_weight: 30 },
    allow: BIO_CONTENT,
  },
  'assignmentGroups.get': { path: `/api/v1/${C}/assignment_groups/1`, allow: BIO_READERS },
  'assignmentGroups.update': {
    path: `/api/v1/${C}/assignment_groups/1`,
    body: { group_weight: 60, rules: { drop_lowest: 1 } },
    allow: BIO_CONTENT,
  },
  'assignmentGroups.delete': { path: `/api/v1/${C}/assignment_groups/6`, allow: BIO_CONTENT },
  'groups.list': { path: `/api/v1/${C}/groups`, allow: BIO_READERS },
  'calendar.create': {
    path: '/api/v1/calendar_events',
    body: { calendar_event: { context_code: 'course_1', title: 'Review', start_at: '2026-12-01T10:00:00Z' } },
    allow: BIO_CONTENT,
  },

  // The upload URL and the file's verifier are the credentials of steps 2 and the download; no
  // token helps without them (see the files tests for the whole flow).
  'files.upload': { path: '/files_api/uploads/0123456789abcdef', allow: [] },
  /** File 1 is Tess's own upload; the root's user managers may act on it too. */
  'files.confirm': { path: '/api/v1/files/1/create_success', allow: ['helpdesk', 'teacher', 'admin'] },
  'files.confirmGet': { path: '/api/v1/files/1/create_success', allow: ['helpdesk', 'teacher', 'admin'] },
  'files.get': { path: '/api/v1/files/1', allow: ['helpdesk', 'teacher', 'admin'] },
  'files.download': { path: '/files/1/download', allow: [] },

  // OAuth2 sits outside the API's rules of who may do what (see oauth.test.ts for the whole flow).
  // The authorization page is public: anyone, signed in or not, may be asked for consent.
  'oauth.authorize': { path: `/login/oauth2/auth?${new URLSearchParams(OAUTH_REQUEST)}`, allow: ALL_ROLES },
  // Consent is given by whoever's token signs it, for themselves: any user, no one anonymous.
  'oauth.confirm': { path: '/login/oauth2/confirm', body: { ...OAUTH_REQUEST, approve: 1 }, allow: EVERYONE },
  // The token endpoint authenticates the client (its id and secret), never a user: a bearer token,
  // or none, changes nothing (here every caller gets the same invalid_grant for an unknown refresh token).
  'oauth.token': {
    path: '/login/oauth2/token',
    body: {
      grant_type: 'refresh_token',
      client_id: MOCK_CLIENT_ID,
      client_secret: MOCK_CLIENT_SECRET,
      refresh_token: '1~unknown',
    },
    allow: ALL_ROLES,
  },
  // Revocation needs a token, and revokes only an OAuth grant's: a seeded token is none (a 400, nothing revoked).
  'oauth.revoke': { path: '/login/oauth2/token', allow: EVERYONE },
};

/** A read-state or subscription route in the three contexts (entry paths given per context). */
function readState(op: string, rest: string, groupRest = rest, itemRest = rest): Record<string, Row> {
  return {
    [`discussions.${op}@courses`]: { path: topic(C, 2, rest), allow: BIO_READERS },
    [`discussions.${op}@groups`]: { path: topic(G, 13, groupRest), allow: GROUP_READERS },
    [`discussions.${op}@collection_items`]: { path: topic(I, 14, itemRest), allow: EVERYONE },
  };
}

/** A submissions route in the course and the section (section A, Sam's) contexts. */
function bySection(rows: Record<string, Row>): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const [name, row] of Object.entries(rows)) {
    out[`submissions.${name}@courses`] = { ...row, path: `/api/v1/${C}${row.path}` };
    out[`submissions.${name}@sections`] = { ...row, path: `/api/v1/sections/1${row.path}` };
  }
  return out;
}
