// An account as the API shows it.
import type { Account } from '../../../spec/types/school.js';
import type { AccountRow } from './repo.js';

export function accountJson(a: AccountRow): Account {
  return {
    id: a.id,
    name: a.name,
    uuid: `acct-${a.id}`,
    parent_account_id: a.parent_account_id,
    root_account_id: a.root_account_id,
    sis_account_id: a.sis_account_id,
    workflow_state: a.workflow_state,
    default_time_zone: a.default_time_zone,
  };
}
