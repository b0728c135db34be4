// Each client operation's parameter and result types, by the operation's id in the route table, as
// octokit's endpoint table does: the client's calls (`client.ops.users.get(params)`) are typed from
// this one map, and what is paged comes from the table. Types only: nothing here exists at run time.
import type { ClientOperationId } from '../routes.js';
import type { ActivityItem, ActivitySummaryEntry, TodoItem } from './activity.js';
import type { CalendarEvent, NewCalendarEvent, UpcomingEvent } from './calendar.js';
import type { Id } from './common.js';
import type {
  BatchUpdateParams,
  Conversation,
  ConversationBatch,
  CreateConversationParams,
  ListConversationsParams,
  MessageFields,
  UpdateConversationParams,
} from './conversations.js';
import type {
  DeletedTopic,
  Entry,
  EntryFields,
  FullTopicView,
  ListTopicsParams,
  Topic,
  TopicContext,
  TopicFields,
} from './discussions.js';
import type { FeedFilter, Grader, HistoryDay, SubmissionHistory, SubmissionVersion } from './history.js';
import type { TokenAnswer, TokenParams } from './oauth.js';
import type {
  GroupFields,
  NewOutcome,
  OutcomeContext,
  OutcomeGroup,
  OutcomeGroupBrief,
  OutcomeLink,
} from './outcomes.js';
import type {
  AssignmentGroup,
  AssignmentGroupFields,
  ListPagesParams,
  Page,
  PageFields,
  PageRevision,
} from './pages.js';
import type { Progress } from './progress.js';
import type { Module, ModuleActionAnswer, ModuleFields, ModuleItem, ModuleItemFields } from './modules.js';
import type { Quiz, QuizFields } from './quizzes.js';
import type {
  AssessmentWriteParams,
  AssociationWriteParams,
  Rubric,
  RubricAssessment,
  RubricAssociation,
  RubricInclude,
  RubricWithAssociation,
  RubricWriteParams,
} from './rubrics.js';
import type { SisImport, SisImportParams, SisImportState } from './sis.js';
import type {
  Admin,
  EndTask,
  Enrollment,
  ListEnrollmentsFilter,
  NewEnrollment,
  Role,
  Section,
  SectionFields,
} from './roster.js';
import type {
  Account,
  Assignment,
  AssignmentFields,
  Attachment,
  Course,
  CourseFields,
  EnrollmentTerm,
  Group,
  TermFields,
  UploadTicket,
} from './school.js';
import type { Recipient, SearchRecipientsParams } from './search.js';
import type {
  GradeDataEntry,
  GradeParams,
  NewSubmission,
  StudentSubmissions,
  Submission,
  SubmissionContext,
  SubmissionInclude,
} from './submissions.js';
import type {
  AvatarOption,
  CreateUserParams,
  FollowRecord,
  ListUsersParams,
  Login,
  PageView,
  Profile,
  UpdateUserParams,
  User,
  UserSettings,
} from './users.js';

type UserRef = { id: Id };
type UserPath = { user_id: Id };
type OnTopic = TopicContext & { topic_id: Id };
type OnEntry = OnTopic & { entry_id: Id };
type Forced = { forced_read_state?: boolean };
/** An outcome call names its context: `{ global: true }`, `{ account_id }` or `{ course_id }`. */
type In<P = unknown> = OutcomeContext & P;
type InAssignment = SubmissionContext & { assignment_id: Id };
/** A page named by its url slug or `page_id:N`. */
type OnPage = { course_id: Id; url_or_id: Id };
type OnGroup = { course_id: Id; assignment_group_id: Id };

export interface Endpoints {
  // users
  'users.list': { params: ListUsersParams; result: User };
  'users.get': { params: UserRef; result: User };
  'users.create': { params: CreateUserParams; result: User };
  'users.update': { params: UpdateUserParams; result: User };
  'users.delete': { params: { account_id: Id; id: Id }; result: User };
  'users.getSettings': { params: UserRef; result: UserSettings };
  'users.updateSettings': { params: UserRef & { manual_mark_as_read?: boolean }; result: UserSettings };
  'users.follow': { params: UserPath; result: FollowRecord };
  'users.unfollow': { params: UserPath; result: FollowRecord | undefined };
  'users.profile': { params: UserPath; result: Profile };
  'users.avatars': { params: UserPath; result: AvatarOption[] };
  'users.pageViews': { params: UserPath & { start_time?: string; end_time?: string }; result: PageView };
  'users.logins': { params: UserPath; result: Login };
  'users.activityStream': { params: { only_active_courses?: boolean }; result: ActivityItem };
  /** The same stream at `/users/activity_stream`, as real instances also serve it. */
  'users.activityStreamAlias': { params: { only_active_courses?: boolean }; result: ActivityItem };
  'users.hideStreamItem': { params: { id: Id }; result: { hidden: boolean } };
  'users.activityStreamSummary': { params: Record<string, never>; result: ActivitySummaryEntry[] };
  'users.todo': { params: Record<string, never>; result: TodoItem[] };
  /** What DELETE on a to-do item's `ignore` URL does (`permanent: 1`: its `ignore_permanently`). */
  'users.ignoreTodo': {
    params: { asset_string: string; purpose: 'grading' | 'submitting'; permanent?: 0 | 1 };
    result: { ignored: boolean };
  };
  'users.upcomingEvents': { params: Record<string, never>; result: UpcomingEvent[] };
  'users.uploadFile': {
    params: UserPath & {
      name: string;
      size: number;
      content_type?: string;
      parent_folder_path?: string;
      on_duplicate?: 'overwrite' | 'rename';
    };
    result: UploadTicket;
  };
  // accounts
  'accounts.list': { params: Record<string, never>; result: Account };
  'accounts.get': { params: { id: Id }; result: Account };
  // courses
  'courses.list': { params: { enrollment_type?: string; state?: string[] }; result: Course };
  'courses.listAccount': {
    params: { account_id: Id; search_term?: string; enrollment_term_id?: Id };
    result: Course;
  };
  'courses.create': {
    params: { account_id: Id; course: Omit<CourseFields, 'event'>; offer?: boolean };
    result: Course;
  };
  'courses.get': { params: { id: Id }; result: Course };
  'courses.update': { params: { id: Id; course: CourseFields }; result: Course };
  'courses.users': { params: { course_id: Id; search_term?: string; include?: 'email'[] }; result: User };
  'courses.uploadFile': {
    params: {
      course_id: Id;
      name: string;
      size: number;
      content_type?: string;
      parent_folder_path?: string;
      on_duplicate?: 'overwrite' | 'rename';
    };
    result: UploadTicket;
  };
  // assignments
  'assignments.list': { params: { course_id: Id; search_term?: string }; result: Assignment };
  'assignments.create': {
    params: { course_id: Id; assignment: AssignmentFields & { name: string } };
    result: Assignment;
  };
  'assignments.get': { params: { course_id: Id; id: Id }; result: Assignment };
  'assignments.update': { params: { course_id: Id; id: Id; assignment: AssignmentFields }; result: Assignment };
  'assignments.delete': { params: { course_id: Id; id: Id }; result: Assignment };
  // rubrics
  'rubrics.list': { params: { course_id: Id }; result: Rubric };
  'rubrics.get': {
    params: { course_id: Id; id: Id; include?: RubricInclude[]; style?: 'full' | 'comments_only' };
    result: Rubric;
  };
  'rubrics.create': { params: RubricWriteParams; result: RubricWithAssociation };
  'rubrics.update': { params: RubricWriteParams & { id: Id }; result: RubricWithAssociation };
  'rubrics.delete': { params: { course_id: Id; id: Id }; result: Rubric };
  'rubrics.createAssociation': { params: AssociationWriteParams; result: RubricWithAssociation };
  'rubrics.updateAssociation': { params: AssociationWriteParams & { id: Id }; result: RubricWithAssociation };
  'rubrics.deleteAssociation': { params: { course_id: Id; id: Id }; result: RubricAssociation };
  'rubrics.createAssessment': { params: AssessmentWriteParams; result: RubricAssessment };
  'rubrics.updateAssessment': { params: AssessmentWriteParams & { id: Id }; result: RubricAssessment };
  'rubrics.deleteAssessment': {
    params: { course_id: Id; rubric_association_id: Id; id: Id };
    result: RubricAssessment;
  };
  // pages
  'pages.list': { params: { course_id: Id } & ListPagesParams; result: Page };
  'pages.create': { params: { course_id: Id; wiki_page: PageFields & { title: string } }; result: Page };
  'pages.get': { params: OnPage; result: Page };
  'pages.update': { params: OnPage & { wiki_page: PageFields }; result: Page };
  'pages.delete': { params: OnPage; result: Page };
  'pages.getFront': { params: { course_id: Id }; result: Page };
  'pages.updateFront': { params: { course_id: Id; wiki_page: PageFields }; result: Page };
  'pages.revisions': { params: OnPage; result: PageRevision };
  'pages.getRevision': { params: OnPage & { revision_id: Id; summary?: boolean }; result: PageRevision };
  'pages.revert': { params: OnPage & { revision_id: Id }; result: PageRevision };
  // assignment groups
  'assignmentGroups.list': {
    params: { course_id: Id; include?: ('assignments' | 'submission')[] };
    result: AssignmentGroup;
  };
  'assignmentGroups.get': {
    params: OnGroup & { include?: 'assignments'[] };
    result: AssignmentGroup;
  };
  'assignmentGroups.create': { params: { course_id: Id } & AssignmentGroupFields; result: AssignmentGroup };
  'assignmentGroups.update': { params: OnGroup & AssignmentGroupFields; result: AssignmentGroup };
  'assignmentGroups.delete': { params: OnGroup & { move_assignments_to?: Id }; result: AssignmentGroup };
  // groups
  'groups.list': { params: { course_id: Id }; result: Group };
  // files
  'files.get': { params: { id: Id }; result: Attachment };
  // enrollments
  'enrollments.listCourse': { params: { course_id: Id } & ListEnrollmentsFilter; result: Enrollment };
  'enrollments.listSection': { params: { section_id: Id } & ListEnrollmentsFilter; result: Enrollment };
  'enrollments.listUser': { params: { user_id: Id } & ListEnrollmentsFilter; result: Enrollment };
  'enrollments.enrollCourse': { params: { course_id: Id; enrollment: NewEnrollment }; result: Enrollment };
  'enrollments.enrollSection': { params: { section_id: Id; enrollment: NewEnrollment }; result: Enrollment };
  'enrollments.end': { params: { course_id: Id; id: Id; task?: EndTask }; result: Enrollment };
  // sections
  'sections.list': { params: { course_id: Id; include?: ('students' | 'avatar_url')[] }; result: Section };
  'sections.create': { params: { course_id: Id; course_section: SectionFields }; result: Section };
  'sections.get': { params: { id: Id; include?: string[] }; result: Section };
  'sections.getInCourse': { params: { course_id: Id; id: Id; include?: string[] }; result: Section };
  'sections.update': { params: { id: Id; course_section: SectionFields }; result: Section };
  'sections.delete': { params: { id: Id }; result: Section };
  'sections.crosslist': { params: { id: Id; new_course_id: Id }; result: Section };
  'sections.uncrosslist': { params: { id: Id }; result: Section };
  // roles
  'roles.list': {
    params: { account_id: Id; state?: ('active' | 'inactive')[]; show_inherited?: boolean };
    result: Role;
  };
  // admins
  'admins.list': { params: { account_id: Id; user_id?: Id[] }; result: Admin };
  'admins.create': {
    params: { account_id: Id; user_id: Id; role?: string; role_id?: number; send_confirmation?: boolean };
    result: Admin;
  };
  'admins.delete': { params: { account_id: Id; user_id: Id; role?: string; role_id?: number }; result: Admin };
  // discussions
  'discussions.listTopics': { params: { course_id: Id } & ListTopicsParams; result: Topic };
  'discussions.listGroupTopics': { params: { group_id: Id } & ListTopicsParams; result: Topic };
  'discussions.createTopic': { params: TopicContext & TopicFields; result: Topic };
  'discussions.updateTopic': { params: OnTopic & TopicFields; result: Topic };
  'discussions.deleteTopic': { params: OnTopic; result: DeletedTopic };
  'discussions.getTopic': { params: OnTopic; result: Topic };
  'discussions.viewTopic': { params: OnTopic & { include_new_entries?: 1 }; result: FullTopicView };
  'discussions.createEntry': { params: OnTopic & EntryFields; result: Entry };
  'discussions.listEntries': { params: OnTopic; result: Entry };
  'discussions.createReply': { params: OnEntry & EntryFields; result: Entry };
  'discussions.listReplies': { params: OnEntry; result: Entry };
  'discussions.entryList': { params: OnTopic & { ids: Id[] }; result: Entry };
  'discussions.updateEntry': { params: OnTopic & { id: Id; message: string }; result: Entry };
  'discussions.deleteEntry': { params: OnTopic & { id: Id }; result: undefined };
  'discussions.markTopicRead': { params: OnTopic; result: undefined };
  'discussions.markTopicUnread': { params: OnTopic; result: undefined };
  'discussions.markAllRead': { params: OnTopic & Forced; result: undefined };
  'discussions.markAllUnread': { params: OnTopic & Forced; result: undefined };
  'discussions.markEntryRead': { params: OnEntry & Forced; result: undefined };
  'discussions.markEntryUnread': { params: OnEntry & Forced; result: undefined };
  'discussions.subscribe': { params: OnTopic; result: undefined };
  'discussions.unsubscribe': { params: OnTopic; result: undefined };
  // SIS imports
  'sis.create': { params: SisImportParams; result: SisImport };
  'sis.list': {
    params: { account_id: Id; workflow_state?: SisImportState[]; created_since?: string };
    result: SisImport;
  };
  'terms.list': {
    params: { account_id: Id; workflow_state?: ('active' | 'deleted' | 'all')[]; include?: 'overrides'[] };
    result: EnrollmentTerm;
  };
  'terms.get': { params: { account_id: Id; id: Id }; result: EnrollmentTerm };
  'terms.create': { params: { account_id: Id; enrollment_term: TermFields }; result: EnrollmentTerm };
  'terms.update': {
    params: { account_id: Id; id: Id; enrollment_term: TermFields; override_sis_stickiness?: boolean };
    result: EnrollmentTerm;
  };
  'terms.delete': { params: { account_id: Id; id: Id }; result: EnrollmentTerm };
  'sis.get': { params: { account_id: Id; id: Id }; result: SisImport };
  'sis.abort': { params: { account_id: Id; id: Id }; result: SisImport };
  // progress
  'progress.get': { params: { id: Id }; result: Progress };
  // calendar
  'calendar.create': { params: { calendar_event: NewCalendarEvent }; result: CalendarEvent };
  // conversations
  'conversations.list': { params: ListConversationsParams; result: Conversation };
  'conversations.create': { params: CreateConversationParams; result: Conversation[] };
  'conversations.batches': { params: Record<string, never>; result: ConversationBatch[] };
  'conversations.get': {
    params: { id: Id; auto_mark_as_read?: boolean; interleave_submissions?: boolean };
    result: Conversation;
  };
  'conversations.update': { params: UpdateConversationParams; result: Conversation };
  'conversations.batchUpdate': { params: BatchUpdateParams; result: Progress };
  'conversations.markAllRead': { params: Record<string, never>; result: Record<string, never> };
  'conversations.delete': { params: { id: Id }; result: Conversation };
  'conversations.addRecipients': { params: { id: Id; recipients: string[] }; result: Conversation };
  'conversations.addMessage': { params: { id: Id; recipients?: string[] } & MessageFields; result: Conversation };
  'conversations.removeMessages': { params: { id: Id; remove: Id[] }; result: Conversation };
  'conversations.unreadCount': { params: Record<string, never>; result: { unread_count: string } };
  /** Deprecated by the API in favour of search.recipients; the same answers. */
  'conversations.findRecipients': { params: SearchRecipientsParams; result: Recipient };
  // search
  'search.recipients': { params: SearchRecipientsParams; result: Recipient };
  // quizzes
  'quizzes.list': { params: { course_id: Id; search_term?: string }; result: Quiz };
  'quizzes.get': { params: { course_id: Id; id: Id }; result: Quiz };
  'quizzes.create': { params: { course_id: Id; quiz: QuizFields }; result: Quiz };
  'quizzes.update': { params: { course_id: Id; id: Id; quiz: QuizFields }; result: Quiz };
  // modules
  'modules.list': {
    params: { course_id: Id; include?: ('items' | 'content_details')[]; search_term?: string; student_id?: Id };
    result: Module;
  };
  'modules.get': {
    params: { course_id: Id; id: Id; include?: ('items' | 'content_details')[]; student_id?: Id };
    result: Module;
  };
  'modules.create': { params: { course_id: Id; module: ModuleFields }; result: Module };
  'modules.update': { params: { course_id: Id; id: Id; module: ModuleFields }; result: Module };
  'modules.delete': { params: { course_id: Id; id: Id }; result: Module };
  'modules.relock': { params: { course_id: Id; id: Id }; result: Module };
  'modules.listItems': {
    params: { course_id: Id; module_id: Id; include?: 'content_details'[]; search_term?: string; student_id?: Id };
    result: ModuleItem;
  };
  'modules.getItem': {
    params: { course_id: Id; module_id: Id; id: Id; include?: 'content_details'[]; student_id?: Id };
    result: ModuleItem;
  };
  'modules.createItem': { params: { course_id: Id; module_id: Id; module_item: ModuleItemFields }; result: ModuleItem };
  'modules.updateItem': {
    params: { course_id: Id; module_id: Id; id: Id; module_item: ModuleItemFields };
    result: ModuleItem;
  };
  'modules.deleteItem': { params: { course_id: Id; module_id: Id; id: Id }; result: ModuleItem };
  'modules.markDone': { params: { course_id: Id; module_id: Id; id: Id }; result: ModuleActionAnswer };
  'modules.markNotDone': { params: { course_id: Id; module_id: Id; id: Id }; result: ModuleActionAnswer };
  'modules.markRead': { params: { course_id: Id; module_id: Id; id: Id }; result: ModuleActionAnswer };
  // outcomes
  /** Answered by a redirect to the context's root group (made on first need), which the client follows. */
  'outcomes.rootGroup': { params: In; result: OutcomeGroup };
  'outcomes.getGroup': { params: In<{ id: Id }>; result: OutcomeGroup };
  'outcomes.updateGroup': {
    params: In<{ id: Id } & GroupFields & { parent_outcome_group_id?: number }>;
    result: OutcomeGroup;
  };
  'outcomes.deleteGroup': { params: In<{ id: Id }>; result: OutcomeGroup };
  'outcomes.listLinks': { params: In<{ id: Id; outcome_style?: 'full' }>; result: OutcomeLink };
  'outcomes.createOutcome': { params: In<{ id: Id } & NewOutcome>; result: OutcomeLink };
  'outcomes.linkOutcome': { params: In<{ id: Id; outcome_id: Id }>; result: OutcomeLink };
  'outcomes.unlinkOutcome': { params: In<{ id: Id; outcome_id: Id }>; result: OutcomeLink };
  'outcomes.listSubgroups': { params: In<{ id: Id }>; result: OutcomeGroupBrief };
  'outcomes.createSubgroup': { params: In<{ id: Id } & GroupFields>; result: OutcomeGroup };
  'outcomes.importGroup': { params: In<{ id: Id; source_outcome_group_id: number }>; result: OutcomeGroup };
  // submissions
  'submissions.submit': {
    params: InAssignment & { submission: NewSubmission; comment?: { text_comment?: string } };
    result: Submission;
  };
  'submissions.list': { params: InAssignment & { include?: SubmissionInclude[] }; result: Submission };
  'submissions.listStudents': {
    params: SubmissionContext & {
      student_ids?: (Id | 'all')[];
      assignment_ids?: Id[];
      grouped?: boolean;
      include?: SubmissionInclude[];
    };
    result: Submission | StudentSubmissions;
  };
  'submissions.get': { params: InAssignment & { user_id: Id; include?: SubmissionInclude[] }; result: Submission };
  'submissions.uploadFile': {
    params: InAssignment & { user_id: Id; name: string; size?: number; content_type?: string };
    result: UploadTicket;
  };
  'submissions.grade': { params: InAssignment & { user_id: Id } & GradeParams; result: Submission };
  // grading
  'grading.updateGrades': { params: InAssignment & { grade_data: Record<string, GradeDataEntry> }; result: Progress };
  // history
  'history.days': { params: { course_id: Id }; result: HistoryDay[] };
  'history.day': { params: { course_id: Id; date: string }; result: Grader[] };
  'history.submissions': {
    params: { course_id: Id; date: string; grader_id: Id; assignment_id: Id };
    result: SubmissionHistory[];
  };
  'history.feed': { params: { course_id: Id } & FeedFilter; result: SubmissionVersion };
  // oauth
  'oauth.token': { params: TokenParams; result: TokenAnswer };
  'oauth.revoke': { params: Record<string, never>; result: unknown };
}

/**
 * The map holds exactly the operations a client sends: a route added to the table without its types
 * here, or types left behind by a route that went, fails the type check on this line and names them.
 * Nothing imports it: the type check is its use (exported, so that neither tsc nor knip calls it unused).
 * @public
 */
export type EndpointsMatchTable = Holds<Exact<keyof Endpoints, ClientOperationId>>;
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : { missing: Exclude<B, A> }) : { extra: Exclude<A, B> };
type Holds<T extends true> = T;
