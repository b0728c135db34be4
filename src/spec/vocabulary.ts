// Values the API defines once, shared by the client's types, the mock and the commands.

export const ENROLLMENT_TYPES = ['StudentEnrollment', 'TeacherEnrollment', 'TaEnrollment', 'DesignerEnrollment', 'ObserverEnrollment'] as const;
export type EnrollmentType = (typeof ENROLLMENT_TYPES)[number];

export const ENROLLMENT_STATES = ['active', 'invited', 'creation_pending', 'deleted', 'rejected', 'completed', 'inactive'] as const;
export type EnrollmentState = (typeof ENROLLMENT_STATES)[number];
