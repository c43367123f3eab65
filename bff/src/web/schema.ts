import { z } from 'zod';
import { ZErrorBody } from '@ques/contracts';

/**
 * The schemas of the web app's catch-all route (`GET /*`): any path; a built file, the app shell or a public page
 * (bytes or HTML, never serialised), 304 for a matching ETag, the JSON 404 for unknown /api calls and missing assets.
 */
export const WEB_ROUTE_SCHEMA = {
  hide: true,
  params: z.object({ '*': z.string() }),
  response: {
    200: z.string().meta({ description: 'A built file of the web app, or an HTML page' }),
    304: z.null(),
    404: ZErrorBody,
  },
};
