// Pages as a kind of the apply file. The API names a page by its url slug, which it makes from the
// title and changes with it, so a page is named here by its page_id (`page_id:N`, which no slug can
// be mistaken for); a listing leaves out each page's body, so each is read whole to compare it.
import type { ApiClient } from '../client/client.js';
import type { ApiObject } from '../spec/types/common.js';

/** A page as the other kinds read: its page_id as its id. */
export const readPage = (o: ApiObject): ApiObject => ({ ...o, id: o.page_id });

/** How a page's verbs are told which page: never by its slug, which an edit of the title moves. */
export const pageArg = (id: number) => `page_id:${id}`;

/** A course's pages, each with its body. */
export async function* listPages(client: ApiClient, course: string, term?: string): AsyncIterable<ApiObject> {
  for await (const p of client.ops.pages.list({
    course_id: course,
    ...(term !== undefined ? { search_term: term } : {}),
  }))
    yield readPage(await client.ops.pages.get({ course_id: course, url_or_id: pageArg(p.page_id) }));
}

/** What Canvas refuses to delete: the course's front page (another must be made the front page first). */
export const isFrontPage = (o: ApiObject) => o.front_page === true;
