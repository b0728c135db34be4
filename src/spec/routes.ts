// The route table: every endpoint of the API once, as data. The client, the mock router,
// `lms api routes`, completions and the coverage test all read this one table.
//
// A path may start with a context placeholder ({tctx}, {octx}, {sctx}); such a row expands into one
// route per context, with the context's name appended to the id (`discussions.createTopic@groups`).

import { UsageError } from '../errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RouteOptions {
  /** The response is a list returned page by page (Link headers). */
  paginated?: boolean;
  /** What the last path id names, for messages like "user 42 not found". */
  resource?: string;
  /** The client sends the body as JSON (where the spec allows it and forms cannot say it), not as a form. */
  encoding?: 'json';
  /**
   * A 503 means "not ready yet, ask again soon" (a view the server builds after a write): the
   * client asks again itself, with short growing waits, before reporting it.
   */
  retryUnavailable?: boolean;
  /** The API answers 204, no body: any other route's empty answer is not a success (see ApiClient.request). */
  noContent?: true;
  /**
   * Parameters that make the request add something each time it is applied (a comment with a
   * grade): with any of them the request is not resent when its outcome is unknown.
   */
  appends?: readonly string[];
  /**
   * false: no client calls this route by name (a URL the server hands out, which a client follows as
   * given; a page a browser visits), so the client has no operation for it. The mock answers it, and
   * a command that follows such a URL still declares the route.
   */
  client?: false;
  /**
   * A list whose pages are objects holding it under this key (`{"sis_imports": […]}`), as some of
   * the real API's lists are: the client pages through the items inside.
   */
  itemsKey?: string;
}

type RouteRow = readonly [`${Method} /${string}`, RouteOptions?];

const contexts = {
  tctx: {
    courses: 'courses/:course_id',
    groups: 'groups/:group_id',
    collection_items: 'collection_items/:collection_item_id',
  },
  octx: { global: 'global', accounts: 'accounts/:account_id', courses: 'courses/:course_id' },
  sctx: { courses: 'courses/:course_id', sections: 'sections/:section_id' },
} as const;

const paged = { paginated: true } as const;

/** Endpoints of lms-api-spec.md (spec/endpoints.tsv), grouped by the catalogue's area. */
const specTable = {
  users: {
    list: ['GET /api/v1/accounts/:account_id/users', { paginated: true, resource: 'account' }],
    create: ['POST /api/v1/accounts/:account_id/users', { resource: 'account' }],
    update: ['PUT /api/v1/users/:id', { resource: 'user' }],
    delete: ['DELETE /api/v1/accounts/:account_id/users/:id', { resource: 'user' }],
    getSettings: ['GET /api/v1/users/:id/settings', { resource: 'user' }],
    updateSettings: ['PUT /api/v1/users/:id/settings', { resource: 'user' }],
    follow: ['PUT /api/v1/users/:user_id/followers/self', { resource: 'user' }],
    unfollow: ['DELETE /api/v1/users/:user_id/followers/self', { resource: 'user', noContent: true }],
    profile: ['GET /api/v1/users/:user_id/profile', { resource: 'user' }],
    avatars: ['GET /api/v1/users/:user_id/avatars', { resource: 'user' }],
    pageViews: ['GET /api/v1/users/:user_id/page_views', { paginated: true, resource: 'user' }],
    uploadFile: ['POST /api/v1/users/:user_id/files', { resource: 'user' }],
    activityStream: ['GET /api/v1/users/self/activity_stream', paged],
    activityStreamAlias: ['GET /api/v1/users/activity_stream', paged],
    activityStreamSummary: ['GET /api/v1/users/self/activity_stream/summary'],
    todo: ['GET /api/v1/users/self/todo'],
    upcomingEvents: ['GET /api/v1/users/self/upcoming_events'],
  },
  discussions: {
    listTopics: ['GET /api/v1/courses/:course_id/discussion_topics', { paginated: true, resource: 'course' }],
    listGroupTopics: ['GET /api/v1/groups/:group_id/discussion_topics', { paginated: true, resource: 'group' }],
    createTopic: ['POST /api/v1/{tctx}/discussion_topics'],
    updateTopic: ['PUT /api/v1/{tctx}/discussion_topics/:topic_id', { resource: 'topic' }],
    deleteTopic: ['DELETE /api/v1/{tctx}/discussion_topics/:topic_id', { resource: 'topic' }],
    getTopic: ['GET /api/v1/{tctx}/discussion_topics/:topic_id', { resource: 'topic' }],
    // The full view is cached by the server and answers 503 until its structure is rebuilt after a write.
    viewTopic: ['GET /api/v1/{tctx}/discussion_topics/:topic_id/view', { retryUnavailable: true }],
    createEntry: ['POST /api/v1/{tctx}/discussion_topics/:topic_id/entries'],
    listEntries: ['GET /api/v1/{tctx}/discussion_topics/:topic_id/entries', paged],
    createReply: ['POST /api/v1/{tctx}/discussion_topics/:topic_id/entries/:entry_id/replies'],
    listReplies: ['GET /api/v1/{tctx}/discussion_topics/:topic_id/entries/:entry_id/replies', paged],
    entryList: ['GET /api/v1/{tctx}/discussion_topics/:topic_id/entry_list', paged],
    updateEntry: ['PUT /api/v1/{tctx}/discussion_topics/:topic_id/entries/:id', { resource: 'entry' }],
    deleteEntry: [
      'DELETE /api/v1/{tctx}/discussion_topics/:topic_id/entries/:id',
      { resource: 'entry', noContent: true },
    ],
    markTopicRead: ['PUT /api/v1/{tctx}/discussion_topics/:topic_id/read', { noContent: true }],
    markTopicUnread: ['DELETE /api/v1/{tctx}/discussion_topics/:topic_id/read', { noContent: true }],
    markAllRead: ['PUT /api/v1/{tctx}/discussion_topics/:topic_id/read_all', { noContent: true }],
    markAllUnread: ['DELETE /api/v1/{tctx}/discussion_topics/:topic_id/read_all', { noContent: true }],
    markEntryRead: ['PUT /api/v1/{tctx}/discussion_topics/:topic_id/entries/:entry_id/read', { noContent: true }],
    markEntryUnread: ['DELETE /api/v1/{tctx}/discussion_topics/:topic_id/entries/:entry_id/read', { noContent: true }],
    subscribe: ['PUT /api/v1/{tctx}/discussion_topics/:topic_id/subscribed', { noContent: true }],
    unsubscribe: ['DELETE /api/v1/{tctx}/discussion_topics/:topic_id/subscribed', { noContent: true }],
  },
  outcomes: {
    rootGroup: ['GET /api/v1/{octx}/root_outcome_group'],
    getGroup: ['GET /api/v1/{octx}/outcome_groups/:id', { resource: 'outcome group' }],
    updateGroup: ['PUT /api/v1/{octx}/outcome_groups/:id', { encoding: 'json', resource: 'outcome group' }],
    deleteGroup: ['DELETE /api/v1/{octx}/outcome_groups/:id', { resource: 'outcome group' }],
    listLinks: ['GET /api/v1/{octx}/outcome_groups/:id/outcomes', { paginated: true, resource: 'outcome group' }],
    createOutcome: ['POST /api/v1/{octx}/outcome_groups/:id/outcomes', { encoding: 'json', resource: 'outcome group' }],
    linkOutcome: ['PUT /api/v1/{octx}/outcome_groups/:id/outcomes/:outcome_id', { resource: 'outcome' }],
    unlinkOutcome: ['DELETE /api/v1/{octx}/outcome_groups/:id/outcomes/:outcome_id', { resource: 'outcome' }],
    listSubgroups: ['GET /api/v1/{octx}/outcome_groups/:id/subgroups', { paginated: true, resource: 'outcome group' }],
    createSubgroup: [
      'POST /api/v1/{octx}/outcome_groups/:id/subgroups',
      { encoding: 'json', resource: 'outcome group' },
    ],
    importGroup: ['POST /api/v1/{octx}/outcome_groups/:id/import', { resource: 'outcome group' }],
  },
  conversations: {
    list: ['GET /api/v1/conversations', paged],
    create: ['POST /api/v1/conversations'],
    batches: ['GET /api/v1/conversations/batches'],
    get: ['GET /api/v1/conversations/:id', { resource: 'conversation' }],
    update: ['PUT /api/v1/conversations/:id', { resource: 'conversation' }],
    batchUpdate: ['PUT /api/v1/conversations'],
    markAllRead: ['POST /api/v1/conversations/mark_all_as_read'],
    delete: ['DELETE /api/v1/conversations/:id', { resource: 'conversation' }],
    addRecipients: ['POST /api/v1/conversations/:id/add_recipients', { resource: 'conversation' }],
    addMessage: ['POST /api/v1/conversations/:id/add_message', { resource: 'conversation' }],
    removeMessages: ['POST /api/v1/conversations/:id/remove_messages', { resource: 'conversation' }],
    unreadCount: ['GET /api/v1/conversations/unread_count'],
    findRecipients: ['GET /api/v1/conversations/find_recipients', paged],
  },
  quizzes: {
    list: ['GET /api/v1/courses/:course_id/quizzes', { paginated: true, resource: 'course' }],
    get: ['GET /api/v1/courses/:course_id/quizzes/:id', { resource: 'quiz' }],
    create: ['POST /api/v1/courses/:course_id/quizzes', { resource: 'course' }],
    update: ['PUT /api/v1/courses/:course_id/quizzes/:id', { resource: 'quiz' }],
  },
  enrollments: {
    listCourse: ['GET /api/v1/courses/:course_id/enrollments', { paginated: true, resource: 'course' }],
    listSection: ['GET /api/v1/sections/:section_id/enrollments', { paginated: true, resource: 'section' }],
    listUser: ['GET /api/v1/users/:user_id/enrollments', { paginated: true, resource: 'user' }],
    enrollCourse: ['POST /api/v1/courses/:course_id/enrollments', { resource: 'course' }],
    enrollSection: ['POST /api/v1/sections/:section_id/enrollments', { resource: 'section' }],
    end: ['DELETE /api/v1/courses/:course_id/enrollments/:id', { resource: 'enrollment' }],
  },
  submissions: {
    submit: ['POST /api/v1/{sctx}/assignments/:assignment_id/submissions', { resource: 'assignment' }],
    list: ['GET /api/v1/{sctx}/assignments/:assignment_id/submissions', { paginated: true, resource: 'assignment' }],
    listStudents: ['GET /api/v1/{sctx}/students/submissions', paged],
    get: ['GET /api/v1/{sctx}/assignments/:assignment_id/submissions/:user_id', { resource: 'submission of user' }],
    uploadFile: [
      'POST /api/v1/{sctx}/assignments/:assignment_id/submissions/:user_id/files',
      { resource: 'submission of user' },
    ],
    grade: [
      'PUT /api/v1/{sctx}/assignments/:assignment_id/submissions/:user_id',
      { resource: 'submission of user', appends: ['comment'] },
    ],
  },
  sections: {
    list: ['GET /api/v1/courses/:course_id/sections', { paginated: true, resource: 'course' }],
    create: ['POST /api/v1/courses/:course_id/sections', { resource: 'course' }],
    crosslist: ['POST /api/v1/sections/:id/crosslist/:new_course_id', { resource: 'course' }],
    uncrosslist: ['DELETE /api/v1/sections/:id/crosslist', { resource: 'section' }],
    update: ['PUT /api/v1/sections/:id', { resource: 'section' }],
    getInCourse: ['GET /api/v1/courses/:course_id/sections/:id', { resource: 'section' }],
    get: ['GET /api/v1/sections/:id', { resource: 'section' }],
    delete: ['DELETE /api/v1/sections/:id', { resource: 'section' }],
  },
  admins: {
    create: ['POST /api/v1/accounts/:account_id/admins', { resource: 'account' }],
    delete: ['DELETE /api/v1/accounts/:account_id/admins/:user_id', { resource: 'admin user' }],
    list: ['GET /api/v1/accounts/:account_id/admins', { paginated: true, resource: 'account' }],
  },
  history: {
    days: ['GET /api/v1/courses/:course_id/gradebook_history/days', { resource: 'course' }],
    day: ['GET /api/v1/courses/:course_id/gradebook_history/:date'],
    submissions: [
      'GET /api/v1/courses/:course_id/gradebook_history/:date/graders/:grader_id/assignments/:assignment_id/submissions',
    ],
    feed: ['GET /api/v1/courses/:course_id/gradebook_history/feed', { paginated: true, resource: 'course' }],
  },
  search: {
    recipients: ['GET /api/v1/search/recipients', paged],
  },
} as const satisfies Record<string, Record<string, RouteRow>>;

/** Real-API endpoints outside the spec that the tool's workflows need (spec/supporting-endpoints.tsv). */
const supportingTable = {
  // The roles an account's courses may enrol with (role_overrides_controller.rb#api_index): the
  // built-in ones and, with show_inherited, the custom roles of the account and those above it.
  roles: {
    list: ['GET /api/v1/accounts/:account_id/roles', { paginated: true, resource: 'account' }],
  },
  users: {
    get: ['GET /api/v1/users/:id', { resource: 'user' }],
    ignoreTodo: ['DELETE /api/v1/users/self/todo/:asset_string/:purpose'],
    hideStreamItem: ['DELETE /api/v1/users/self/activity_stream/:id', { resource: 'stream item' }],
    // A user's logins in every account (pseudonyms_controller.rb#index, pseudonym_json): their
    // workflow_state is what `user[event]` suspends, and what an import compares a SIS status with.
    logins: ['GET /api/v1/users/:user_id/logins', { paginated: true, resource: 'user' }],
  },
  accounts: {
    list: ['GET /api/v1/accounts', paged],
    get: ['GET /api/v1/accounts/:id', { resource: 'account' }],
  },
  progress: {
    get: ['GET /api/v1/progress/:id', { resource: 'progress' }],
  },
  courses: {
    list: ['GET /api/v1/courses', paged],
    listAccount: ['GET /api/v1/accounts/:account_id/courses', { paginated: true, resource: 'account' }],
    create: ['POST /api/v1/accounts/:account_id/courses', { resource: 'account' }],
    get: ['GET /api/v1/courses/:id', { resource: 'course' }],
    update: ['PUT /api/v1/courses/:id', { resource: 'course' }],
    // Who is in a course, searched by name, login, SIS id or email: a person named by their email
    // address is found here (the API takes no email in a path).
    users: ['GET /api/v1/courses/:course_id/users', { paginated: true, resource: 'course' }],
    // Step 1 of a file's upload into the course's files (courses_controller.rb#create_file), the
    // same three steps as a user's: a File module item takes only the course's own files.
    uploadFile: ['POST /api/v1/courses/:course_id/files', { resource: 'course' }],
  },
  assignments: {
    list: ['GET /api/v1/courses/:course_id/assignments', { paginated: true, resource: 'course' }],
    create: ['POST /api/v1/courses/:course_id/assignments', { resource: 'course' }],
    get: ['GET /api/v1/courses/:course_id/assignments/:id', { resource: 'assignment' }],
    update: ['PUT /api/v1/courses/:course_id/assignments/:id', { resource: 'assignment' }],
    delete: ['DELETE /api/v1/courses/:course_id/assignments/:id', { resource: 'assignment' }],
  },
  groups: {
    list: ['GET /api/v1/courses/:course_id/groups', { paginated: true, resource: 'course' }],
  },
  // Rubrics (rubrics_api_controller.rb reads them, rubrics_controller.rb writes them): a course's
  // rubrics with their criteria and ratings, and their associations to assignments.
  rubrics: {
    list: ['GET /api/v1/courses/:course_id/rubrics', { paginated: true, resource: 'course' }],
    get: ['GET /api/v1/courses/:course_id/rubrics/:id', { resource: 'rubric' }],
    create: ['POST /api/v1/courses/:course_id/rubrics', { resource: 'course' }],
    update: ['PUT /api/v1/courses/:course_id/rubrics/:id', { resource: 'rubric' }],
    delete: ['DELETE /api/v1/courses/:course_id/rubrics/:id', { resource: 'rubric' }],
    // A rubric's associations of their own (rubric_associations_controller.rb): what it grades or
    // is bookmarked in; create and update answer `{ rubric, rubric_association }` as rubrics do.
    createAssociation: ['POST /api/v1/courses/:course_id/rubric_associations', { resource: 'course' }],
    updateAssociation: ['PUT /api/v1/courses/:course_id/rubric_associations/:id', { resource: 'rubric association' }],
    deleteAssociation: [
      'DELETE /api/v1/courses/:course_id/rubric_associations/:id',
      { resource: 'rubric association' },
    ],
    // A submission assessed under an association (rubric_assessments_controller.rb).
    createAssessment: [
      'POST /api/v1/courses/:course_id/rubric_associations/:rubric_association_id/rubric_assessments',
      { resource: 'rubric association' },
    ],
    updateAssessment: [
      'PUT /api/v1/courses/:course_id/rubric_associations/:rubric_association_id/rubric_assessments/:id',
      { resource: 'rubric assessment' },
    ],
    deleteAssessment: [
      'DELETE /api/v1/courses/:course_id/rubric_associations/:rubric_association_id/rubric_assessments/:id',
      { resource: 'rubric assessment' },
    ],
  },
  // A course's pages (wiki_pages_api_controller.rb): a page is named by its url slug or `page_id:N`
  // (a slug wins where both could be meant); PUT on a slug that names none creates the page.
  pages: {
    list: ['GET /api/v1/courses/:course_id/pages', { paginated: true, resource: 'course' }],
    create: ['POST /api/v1/courses/:course_id/pages', { resource: 'course' }],
    get: ['GET /api/v1/courses/:course_id/pages/:url_or_id', { resource: 'page' }],
    update: ['PUT /api/v1/courses/:course_id/pages/:url_or_id', { resource: 'page' }],
    delete: ['DELETE /api/v1/courses/:course_id/pages/:url_or_id', { resource: 'page' }],
    getFront: ['GET /api/v1/courses/:course_id/front_page', { resource: 'course' }],
    updateFront: ['PUT /api/v1/courses/:course_id/front_page', { resource: 'course' }],
    revisions: ['GET /api/v1/courses/:course_id/pages/:url_or_id/revisions', { paginated: true, resource: 'page' }],
    // `latest` names the page's current revision.
    getRevision: ['GET /api/v1/courses/:course_id/pages/:url_or_id/revisions/:revision_id', { resource: 'revision' }],
    revert: ['POST /api/v1/courses/:course_id/pages/:url_or_id/revisions/:revision_id', { resource: 'revision' }],
  },
  // A course's assignment groups and their weights and drop rules (assignment_groups_controller.rb,
  // assignment_groups_api_controller.rb).
  assignmentGroups: {
    list: ['GET /api/v1/courses/:course_id/assignment_groups', { paginated: true, resource: 'course' }],
    create: ['POST /api/v1/courses/:course_id/assignment_groups', { resource: 'course' }],
    get: ['GET /api/v1/courses/:course_id/assignment_groups/:assignment_group_id', { resource: 'assignment group' }],
    update: ['PUT /api/v1/courses/:course_id/assignment_groups/:assignment_group_id', { resource: 'assignment group' }],
    delete: [
      'DELETE /api/v1/courses/:course_id/assignment_groups/:assignment_group_id',
      { resource: 'assignment group' },
    ],
  },
  // Real instances' calendar API: events give the upcoming-events list its calendar form.
  calendar: {
    create: ['POST /api/v1/calendar_events'],
  },
  grading: {
    updateGrades: [
      'POST /api/v1/{sctx}/assignments/:assignment_id/submissions/update_grades',
      { resource: 'assignment' },
    ],
  },
  // Modules and their items (canvas-lms context_modules_api_controller.rb and
  // context_module_items_api_controller.rb): a course's sequence of content, and each student's
  // progress through it.
  modules: {
    list: ['GET /api/v1/courses/:course_id/modules', { paginated: true, resource: 'course' }],
    get: ['GET /api/v1/courses/:course_id/modules/:id', { resource: 'module' }],
    create: ['POST /api/v1/courses/:course_id/modules', { resource: 'course' }],
    update: ['PUT /api/v1/courses/:course_id/modules/:id', { resource: 'module' }],
    delete: ['DELETE /api/v1/courses/:course_id/modules/:id', { resource: 'module' }],
    relock: ['PUT /api/v1/courses/:course_id/modules/:id/relock', { resource: 'module' }],
    listItems: ['GET /api/v1/courses/:course_id/modules/:module_id/items', { paginated: true, resource: 'module' }],
    getItem: ['GET /api/v1/courses/:course_id/modules/:module_id/items/:id', { resource: 'module item' }],
    createItem: ['POST /api/v1/courses/:course_id/modules/:module_id/items', { resource: 'module' }],
    updateItem: ['PUT /api/v1/courses/:course_id/modules/:module_id/items/:id', { resource: 'module item' }],
    deleteItem: ['DELETE /api/v1/courses/:course_id/modules/:module_id/items/:id', { resource: 'module item' }],
    markDone: ['PUT /api/v1/courses/:course_id/modules/:module_id/items/:id/done', { resource: 'module item' }],
    markNotDone: ['DELETE /api/v1/courses/:course_id/modules/:module_id/items/:id/done', { resource: 'module item' }],
    markRead: ['POST /api/v1/courses/:course_id/modules/:module_id/items/:id/mark_read', { resource: 'module item' }],
  },
  // Steps 2 and 3 of a file upload go to URLs the server hands out (upload_url, then Location).
  // A client follows those URLs as given; these rows are the mock's own answers to them.
  files: {
    upload: ['POST /files_api/uploads/:upload_id', { resource: 'upload', client: false }],
    confirm: ['POST /api/v1/files/:id/create_success', { resource: 'file', client: false }],
    confirmGet: ['GET /api/v1/files/:id/create_success', { resource: 'file', client: false }],
    get: ['GET /api/v1/files/:id', { resource: 'file' }],
    download: ['GET /files/:id/download', { resource: 'file', client: false }],
  },
  // OAuth2 as real instances serve it, outside /api/v1: the authorization-code grant with PKCE
  // (RFC 6749, RFC 7636) and the refresh grant. A browser visits the authorization page and answers
  // its consent form (the mock's own step: real instances keep the request in a login session);
  // `lms auth login` and `logout` call the token endpoint.
  // Canvas's SIS import (sis_imports_api_controller.rb, SisBatch#api_json): CSVs or a zip of them
  // posted as one multipart attachment, applied by the instance's own job; admins of a root account.
  sis: {
    create: ['POST /api/v1/accounts/:account_id/sis_imports', { resource: 'account' }],
    list: [
      'GET /api/v1/accounts/:account_id/sis_imports',
      { paginated: true, resource: 'account', itemsKey: 'sis_imports' },
    ],
    get: ['GET /api/v1/accounts/:account_id/sis_imports/:id', { resource: 'SIS import' }],
    abort: ['PUT /api/v1/accounts/:account_id/sis_imports/:id/abort', { resource: 'SIS import' }],
  },
  // A root account's enrollment terms (terms_api_controller.rb, terms_controller.rb): what a course is
  // in, which an admin or a teacher there may read and its admins change; the list is wrapped as
  // {"enrollment_terms": […]}.
  terms: {
    list: [
      'GET /api/v1/accounts/:account_id/terms',
      { paginated: true, resource: 'account', itemsKey: 'enrollment_terms' },
    ],
    get: ['GET /api/v1/accounts/:account_id/terms/:id', { resource: 'term' }],
    create: ['POST /api/v1/accounts/:account_id/terms', { resource: 'account' }],
    update: ['PUT /api/v1/accounts/:account_id/terms/:id', { resource: 'term' }],
    delete: ['DELETE /api/v1/accounts/:account_id/terms/:id', { resource: 'term' }],
  },
  oauth: {
    authorize: ['GET /login/oauth2/auth', { client: false }],
    confirm: ['POST /login/oauth2/confirm', { client: false }],
    token: ['POST /login/oauth2/token'],
    revoke: ['DELETE /login/oauth2/token', { noContent: true }],
  },
} as const satisfies Record<string, Record<string, RouteRow>>;

type ContextName<P extends string> = P extends `${string}{${infer C extends keyof typeof contexts}}${string}`
  ? `@${Extract<keyof (typeof contexts)[C], string>}`
  : '';
type IdsOf<T extends Record<string, Record<string, RouteRow>>> = {
  [A in keyof T & string]: {
    [N in keyof T[A] & string]: `${A}.${N}${ContextName<T[A][N][0]>}`;
  }[keyof T[A] & string];
}[keyof T & string];

export type RouteId = IdsOf<typeof specTable> | IdsOf<typeof supportingTable>;

type PagedIn<T extends Record<string, Record<string, RouteRow>>> = {
  [A in keyof T & string]: {
    [N in keyof T[A] & string]: T[A][N] extends readonly [string, { readonly paginated: true }] ? `${A}.${N}` : never;
  }[keyof T[A] & string];
}[keyof T & string];
/** The operations whose answer is a list returned page by page: what the client iterates. */
export type PagedOperationId = PagedIn<typeof specTable> | PagedIn<typeof supportingTable>;
type ClientIn<T extends Record<string, Record<string, RouteRow>>> = {
  [A in keyof T & string]: {
    [N in keyof T[A] & string]: T[A][N] extends readonly [string, { readonly client: false }] ? never : `${A}.${N}`;
  }[keyof T[A] & string];
}[keyof T & string];
/** The operations a client sends itself: every one but the rows marked `client: false`. */
export type ClientOperationId = ClientIn<typeof specTable> | ClientIn<typeof supportingTable>;
/** An operation without its context suffix: `discussions.createTopic` covers all three contexts. */
// (Distributed over the union through `infer R`: applied to RouteId as a whole it never matched.)
export type OperationId = RouteId extends infer R ? (R extends `${infer O}@${string}` ? O : R) : never;

type Contexts = typeof contexts;
/** A row's id and path per context: `{ id: 'discussions.getTopic@groups'; path: '/api/v1/groups/:group_id/…' }`. */
type EntriesOf<Id extends string, Spec> = Spec extends `${Method} ${infer P}`
  ? P extends `${infer Pre}{${infer C extends keyof Contexts}}${infer Post}`
    ? {
        [X in keyof Contexts[C] & string]: { id: `${Id}@${X}`; path: `${Pre}${Contexts[C][X] & string}${Post}` };
      }[keyof Contexts[C] & string]
    : { id: Id; path: P }
  : never;
type EntriesIn<T extends Record<string, Record<string, RouteRow>>> = {
  [A in keyof T & string]: { [N in keyof T[A] & string]: EntriesOf<`${A}.${N}`, T[A][N][0]> }[keyof T[A] & string];
}[keyof T & string];
type RouteEntry = EntriesIn<typeof specTable> | EntriesIn<typeof supportingTable>;
type ParamNames<P extends string> = P extends `${string}/:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}/:${infer Name}`
    ? Name
    : never;
/** The path ids a route's URL is made of, by name: `pathOf('sections.crosslist', { id, new_course_id })`. */
export type PathParams<I extends RouteId> = {
  readonly [K in ParamNames<Extract<RouteEntry, { id: I }>['path']>]: string | number;
};

export interface Route {
  id: RouteId;
  operation: string;
  area: string;
  method: Method;
  path: string;
  paginated: boolean;
  /** Names of the path placeholders, in order. */
  params: string[];
  resource?: string;
  context?: string;
  source: 'spec' | 'supporting';
  encoding?: 'json';
  retryUnavailable: boolean;
  noContent: boolean;
  appends: readonly string[];
  /** Whether a client sends it itself (see RouteOptions.client). */
  client: boolean;
  /** The key a page holds its items under (see RouteOptions.itemsKey). */
  itemsKey?: string;
}

/** A row of either table, by area and name: the spec's first, as the tables are read in that order. */
function rowOf(area: string, name: string): { row: RouteRow; source: Route['source'] } | undefined {
  for (const [table, source] of tables) {
    const rows: Record<string, RouteRow> | undefined = Object.hasOwn(table, area) ? table[area] : undefined;
    if (rows && Object.hasOwn(rows, name)) return { row: rows[name], source };
  }
  return undefined;
}

const tables: readonly [Record<string, Record<string, RouteRow>>, Route['source']][] = [
  [specTable, 'spec'],
  [supportingTable, 'supporting'],
];

/**
 * Each operation's routes, one per context, made when first asked for: a command sends one or two
 * of the 192, and expanding the whole table was the largest piece of evaluating the CLI.
 */
const byOperation = new Map<string, readonly Route[]>();

function variantsOfRow(area: string, name: string): readonly Route[] {
  const operation = `${area}.${name}`;
  const made = byOperation.get(operation);
  if (made) return made;
  const found = rowOf(area, name);
  if (!found) return [];
  const [spec, opts = {}] = found.row;
  const [method, template] = spec.split(' ') as [Method, string];
  const routes = variantsOfTemplate(template).map(
    ([context, path]): Route => ({
      id: `${operation}${context ? `@${context}` : ''}` as RouteId,
      operation,
      area,
      method,
      path,
      paginated: opts.paginated ?? false,
      params: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]),
      resource: opts.resource,
      context,
      source: found.source,
      encoding: opts.encoding,
      retryUnavailable: opts.retryUnavailable ?? false,
      noContent: opts.noContent ?? false,
      appends: opts.appends ?? [],
      client: opts.client ?? true,
      ...(opts.itemsKey ? { itemsKey: opts.itemsKey } : {}),
    }),
  );
  byOperation.set(operation, routes);
  return routes;
}

/** A template's paths, one per context (in the contexts' order), each with its context's name. */
function variantsOfTemplate(template: string): [string | undefined, string][] {
  const placeholder = /\{(\w+)\}/.exec(template);
  return placeholder
    ? Object.entries(contexts[placeholder[1] as keyof typeof contexts]).map(([ctx, seg]) => [
        ctx,
        template.replace(placeholder[0], seg),
      ])
    : [[undefined, template]];
}

/**
 * The ids and paths of one method's routes whose paths have `segments` segments, in allRoutes'
 * order, without making the routes: a router asks only for the shape of the request in hand, and
 * makes (`route`) only the one that fits, so a process answering one request does not expand the
 * whole table.
 */
export function templatesShaped(method: string, segments: number): { id: RouteId; path: string }[] {
  const found: { id: RouteId; path: string }[] = [];
  // Plain loops over the rows, no arrays of entries: this runs for each new request shape, often first thing in a
  // process.
  for (const [table] of tables) {
    for (const area in table) {
      const rows = table[area];
      for (const name in rows) {
        const spec = rows[name][0];
        if (!spec.startsWith(method) || spec.charCodeAt(method.length) !== 32 /* space */) continue;
        const template = spec.slice(method.length + 1);
        if (!template.includes('{')) {
          if (segmentCount(template) === segments) found.push({ id: `${area}.${name}` as RouteId, path: template });
          continue;
        }
        for (const [context, path] of variantsOfTemplate(template))
          if (segmentCount(path) === segments) found.push({ id: `${area}.${name}@${context}` as RouteId, path });
      }
    }
  }
  return found;
}

const segmentCount = (path: string) => path.split('/').length - 1;

/** An operation's area and name: `discussions.createTopic` → `discussions`, `createTopic`. */
function split(operation: string): [string, string] {
  const dot = operation.indexOf('.');
  return [operation.slice(0, dot), operation.slice(dot + 1)];
}

let everyRoute: readonly Route[] | undefined;

/** Every route, in the tables' order, each context variant after its row's previous ones. */
export function allRoutes(): readonly Route[] {
  everyRoute ??= tables.flatMap(([table]) =>
    Object.entries(table).flatMap(([area, rows]) => Object.keys(rows).flatMap((name) => variantsOfRow(area, name))),
  );
  return everyRoute;
}

/**
 * The areas with an operation a client sends, in the tables' order: what the client names as
 * `client.ops.<area>` before any of them is used.
 */
export function clientAreas(): string[] {
  const areas = new Set<string>();
  for (const [table] of tables) {
    for (const area in table)
      if (!areas.has(area) && Object.values(table[area]).some(([, opts]) => opts?.client !== false)) areas.add(area);
  }
  return [...areas];
}

/**
 * The operations of an area a client sends, as written (a row's variants share its paging): what
 * the client binds as `client.ops.<area>.<name>` when the area is first used.
 */
export function clientOperations(area: string): { name: string; paginated: boolean }[] {
  const found = new Map<string, { name: string; paginated: boolean; client: boolean }>();
  for (const [table] of tables) {
    if (!Object.hasOwn(table, area)) continue;
    for (const [name, [, opts = {}]] of Object.entries(table[area]))
      found.set(name, { name, paginated: opts.paginated ?? false, client: opts.client ?? true });
  }
  return [...found.values()].filter((o) => o.client);
}

export function route(id: RouteId): Route {
  const at = id.indexOf('@');
  const [area, name] = split(at < 0 ? id : id.slice(0, at));
  const found = variantsOfRow(area, name).find((r) => r.id === id);
  if (!found) throw new Error(`unknown route ${id}`);
  return found;
}

/** Every context variant of an operation (`discussions.createTopic` → three routes). */
export function variantsOf(operation: OperationId): Route[] {
  return [...variantsOfRow(...split(operation))];
}

/** Percent-encodes one path segment, keeping the `:` of SIS ids readable (`sis_course_id:CS%2F101`). */
export function encodePathSegment(value: string | number): string {
  return encodeURIComponent(String(value)).replace(/%3A/gi, ':');
}

/**
 * A route's path with its ids filled in, each encoded once as one segment (a `/` in an SIS id stays
 * inside its segment). An id that is missing, empty or false is refused rather than sent as a
 * shorter URL that names another resource; `name` is what the message calls the call.
 */
export function pathOf<I extends RouteId>(id: I, params: PathParams<I>): string;
export function pathOf(route: Route, params: Readonly<Record<string, unknown>>, name?: string): string;
export function pathOf(which: RouteId | Route, params: Readonly<Record<string, unknown>>, name?: string): string {
  const r = typeof which === 'string' ? route(which) : which;
  const missing = r.params.filter((p) => !isGiven(params[p]));
  if (missing.length) throw new UsageError(`${name ?? r.id} needs ${missing.join(' + ')}`);
  return r.path.replace(/:(\w+)/g, (_, p: string) => encodePathSegment(String(params[p])));
}

/** Whether a call gives a parameter: not undefined, null, '' or false. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && value !== false;
}
