// Searching for message recipients: the people and contexts the caller may message.
import { op } from '../operation.js';
import type { Recipient, SearchRecipientsParams } from '../../spec/types/search.js';

export const search = {
  recipients: op('search.recipients').as<SearchRecipientsParams, Recipient>(),
};
